// `serve --clock realtime --speed X` (docs/api.md#start-up): the simulated clock follows the wall clock times X,
// for integrators who want time to pass by itself. The kernel is moved only when it matters: when a timer or a
// market print falls due (checked every STEP_MS of wall time), and before each request, so that a request sees,
// and is stamped with, the time it came at. An idle sandbox therefore journals nothing, however long it runs
// (docs/api.md#persistence). A manual advance moves the clock ahead of the wall; it then goes on from there.
import type { Sandbox } from './sandbox.js';

const STEP_MS = 50;

export class RealtimeClock {
  private anchorWallMs: number;
  private anchorSimMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private stepping = false;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly speed: number,
    private readonly onError: (error: unknown) => void,
    /** The wall clock in ms (tests pass their own). */
    private readonly wallMs: () => number = () => performance.now(),
  ) {
    this.anchorWallMs = wallMs();
    this.anchorSimMs = sandbox.kernel.nowMs;
    // After a reset the clock follows the wall from the start again, from the moment of the reset.
    sandbox.onReset(() => this.anchorAtKernel());
  }

  /** Checks every STEP_MS of wall time whether something is due. */
  start(): this {
    this.timer = setInterval(() => void this.step(), STEP_MS);
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The simulated time the wall clock says it is now (never behind the kernel's). */
  nowMs(): number {
    const kernelMs = this.sandbox.kernel.nowMs;
    const followed = this.anchorSimMs + Math.floor((this.wallMs() - this.anchorWallMs) * this.speed);
    if (followed >= kernelMs) return followed;
    // The kernel went ahead (a manual advance): follow the wall from there.
    this.anchorAtKernel();
    return kernelMs;
  }

  private anchorAtKernel(): void {
    this.anchorWallMs = this.wallMs();
    this.anchorSimMs = this.sandbox.kernel.nowMs;
  }

  /** Moves the kernel to now if a timer or a print is due by then. */
  step(): Promise<void> | undefined {
    if (this.stepping) return undefined;
    const now = this.nowMs();
    const due = this.sandbox.nextDueMs();
    if (due === undefined || due > now) return undefined;
    this.stepping = true;
    return this.sandbox
      .catchUpTo(() => this.nowMs())
      .catch(this.onError)
      .finally(() => (this.stepping = false));
  }

  /** Moves the kernel to now before a request is handled. */
  catchUp(): Promise<void> | undefined {
    return this.nowMs() > this.sandbox.kernel.nowMs ? this.sandbox.catchUpTo(() => this.nowMs()) : undefined;
  }
}
