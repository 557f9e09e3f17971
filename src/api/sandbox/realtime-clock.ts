// `serve --clock realtime --speed X` (docs/api.md#start-up): the simulated clock follows the wall clock times X,
// for integrators who want time to pass by itself. Each step advances by the wall time since the last, so a slow
// step (a long market file) does not make the clock drift.
import type { Sandbox } from './sandbox.js';

const STEP_MS = 50;

export function startRealtimeClock(sandbox: Sandbox, speed: number, onError: (error: unknown) => void): () => void {
  let lastWallMs = performance.now();
  let simCarryMs = 0;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    const wallMs = performance.now();
    simCarryMs += (wallMs - lastWallMs) * speed;
    lastWallMs = wallMs;
    const stepMs = Math.floor(simCarryMs);
    if (stepMs < 1) return;
    simCarryMs -= stepMs;
    running = true;
    sandbox
      .advanceTo(sandbox.kernel.nowMs + stepMs)
      .catch(onError)
      .finally(() => (running = false));
  }, STEP_MS);
  return () => clearInterval(timer);
}
