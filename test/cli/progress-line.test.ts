// The replay's progress line on a terminal (src/cli/progress-line.ts): silent for the first second of wall time,
// then at most one update every 100 ms, each written over the last; ended with a newline only when one was shown.
import { describe, expect, it } from 'vitest';
import { ProgressLine } from '../../src/cli/progress-line.js';

function terminal() {
  const written: string[] = [];
  let nowMs = 0;
  const line = new ProgressLine({ write: (text: string) => written.push(text) }, () => nowMs);
  return { written, line, at: (ms: number) => void (nowMs = ms) };
}

describe('ProgressLine', () => {
  it('shows nothing, not even the newline, for a run within its first second', () => {
    const { written, line, at } = terminal();
    for (const ms of [0, 300, 999]) {
      at(ms);
      line.update(() => `at ${ms}`);
    }
    line.end();
    expect(written, 'a short run keeps the terminal as it was').toEqual([]);
  });

  it('then updates at most every 100 ms, over the same line, and ends it with a newline', () => {
    const { written, line, at } = terminal();
    for (const ms of [1_000, 1_050, 1_099, 1_100, 1_250]) {
      at(ms);
      line.update(() => `at ${ms}`);
    }
    line.end();
    // 1,050 and 1,099 are within 100 ms of the update at 1,000; 1,100 and 1,250 are not.
    expect(written).toEqual(['\rat 1000\u001b[K', '\rat 1100\u001b[K', '\rat 1250\u001b[K', '\n']);
  });
});
