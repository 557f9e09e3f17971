// docs/api.md#sandbox-control: a reset takes its turn with the clock's advances. An advance already under way (its
// market file being read between prints) ends on the kernel it began on, and the reset then starts from the seed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './api-harness.js';

let api: TestApi | undefined;
afterEach(() => api?.close());

/** 200,000 ticks over ten minutes from the default start (2026-03-02 08:00 CT): read in several batches. */
function ticksFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'propsim-reset-turns-')), 'ticks.csv');
  const start = Date.UTC(2026, 2, 2, 14, 0, 1);
  const rows = Array.from({ length: 200_000 }, (_, i) => `${new Date(start + i * 3).toISOString()},ESM6,5000.00,1`);
  writeFileSync(file, `ts,instrument,price,size\n${rows.join('\n')}\n`);
  return file;
}

describe('docs/api.md#sandbox-control: reset and advance take turns', () => {
  it('a reset waits for the advances asked before it: one under way and one queued behind it stay on their kernel', async () => {
    const ticks = ticksFile();
    // The reset comes at several moments of the first advance's read of the file (turns of the event loop).
    for (const turns of [0, 2, 4, 6, 8, 10, 15, 20, 30]) {
      api = await startTestApi({ market: [{ path: ticks, format: 'ticks' }] });
      const start = api.sandbox.config.startMs;
      const first = api.sandbox.advanceTo(() => start + 600_000);
      const second = api.sandbox.advanceTo(() => start + 7_200_000);
      for (let i = 0; i < turns; i++) await new Promise((next) => setImmediate(next));
      const old = api.sandbox.kernel;
      await api.sandbox.reset();
      await Promise.all([first, second]);
      expect(old.nowMs - start, `after ${turns} turns: both advances ended on the old kernel`).toBe(7_200_000);
      expect(api.sandbox.kernel.nowMs, `after ${turns} turns: the reset came last`).toBe(start);
      await api.close();
      api = undefined;
    }
  });
});
