// Redis servers and worker processes a queue test starts, stopped after each test whatever it left running (a
// stopped Redis or an exited worker stops again at once).
import { afterEach } from 'vitest';

interface Stoppable {
  stop(): Promise<void>;
}

/** Registers the afterEach; returns `tracked`, which keeps what it is given to stop after the test and returns it. */
export function stoppedAfterEach(): <T extends Stoppable>(running: T) => T {
  const running: Stoppable[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
  }, 60_000);
  return (r) => {
    running.push(r);
    return r;
  };
}
