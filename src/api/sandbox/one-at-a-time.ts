// The sandbox's advances and resets run one at a time: a market file is read between prints, and an advance in
// flight must end on the kernel it began on.

export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task given before it has settled, whether it failed or not. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.last.then(task);
    this.last = run.catch(() => undefined);
    return run;
  }
}
