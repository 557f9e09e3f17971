// Source comments say why, in the project's own terms; measured figures and their history live in docs/performance.md,
// generated from `npm run bench`, where they are re-measured, not in comments, where they go stale unnoticed. This
// looks for the forms such figures took: "~0.2 s", "took 55 ms", "costs ~10 %", "12 % faster", "6.5 -> 5 s".
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readText, textFilesUnder } from './markdown-anchors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const UNIT = String.raw`(?:ns|µs|us|ms|s|KB|MB|GB|MiB|GiB|%)`;
const FIGURE = [
  new RegExp(String.raw`~ ?\d[\d.,]* ?${UNIT}(?![\w])`),
  new RegExp(String.raw`\b(?:took|cost|costs|spent)\b[^.;]*?\b\d[\d.,]* ?${UNIT}(?![\w])`),
  /\b\d[\d.]* ?% (?:faster|slower|sooner)\b/,
  /\b\d[\d.]* ?-> ?\d[\d.]* ?(?:ms|s)\b/,
];
const COMMENT = /^\s*(?:\/\/|\/\*\*?|\*)(.*)$/;

describe('source comments', () => {
  it('carry no measured timings or sizes (they belong in docs/performance.md, from npm run bench)', () => {
    const found: string[] = [];
    for (const file of ['src', 'scripts', 'bench'].flatMap((dir) => textFilesUnder(join(ROOT, dir)))) {
      if (!file.endsWith('.ts') || file.includes(`${join('src', 'client')}`)) continue;
      readText(file)
        .split('\n')
        .forEach((line, i) => {
          const comment = COMMENT.exec(line)?.[1];
          if (comment !== undefined && FIGURE.some((figure) => figure.test(comment)))
            found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found, found.join('\n')).toEqual([]);
  });
});
