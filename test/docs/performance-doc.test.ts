// docs/performance.md is generated from `npm run bench -- --json` (scripts/performance/render-performance.ts): each
// benchmark measured gets a section in the running order, each figure a row, and a later run replaces only the
// benchmarks it measured.
import { describe, expect, it } from 'vitest';
import { mergeFigures, renderPerformance } from '../../scripts/performance/render-performance.js';

const BENCHES = [
  { name: 'kernel', description: 'kernel: prints vs resting orders' },
  { name: 'restart', description: 'restart from a snapshot' },
];

describe('performance doc (scripts/performance/render-performance.ts)', () => {
  it('lists each benchmark in running order, a median with its runs, nested figures by dotted path', () => {
    const doc = renderPerformance(
      {
        restart: { restartMs: 2650.5, restarts: [2600, 2700] },
        kernel: { printsPerSecond: { runs: [1_000_000, 2_000_000, 1_500_000], median: 1_500_000 }, cases: [{ n: 1 }] },
      },
      BENCHES,
    );
    expect(doc.indexOf('## kernel'), 'kernel runs before restart').toBeLessThan(doc.indexOf('## restart'));
    expect(doc).toContain('kernel: prints vs resting orders');
    expect(doc).toContain('| printsPerSecond | 1,500,000 (runs 1,000,000, 2,000,000, 1,500,000) |');
    expect(doc).toContain('| cases[0].n | 1 |');
    expect(doc).toContain('| restartMs | 2,650.5 |');
    expect(doc).toContain('| restarts | 2,600, 2,700 |');
  });

  it('a later run replaces the benchmarks it measured and keeps the others', () => {
    const merged = mergeFigures({ kernel: { a: 1 }, restart: { b: 2 } }, { kernel: { a: 3 } });
    expect(merged).toEqual({ kernel: { a: 3 }, restart: { b: 2 } });
  });
});
