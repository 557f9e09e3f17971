// docs/architecture.md's Layout of src/ is generated from the files' header comments (npm run docs:layout), so a
// file added, moved or re-described fails here until the map is regenerated and the change is seen in review.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fillLayoutRegion } from '../../scripts/docs/layout-region.js';
import { folderLinesOutOfStep, headerSentence, sourceLayout } from '../../scripts/docs/source-layout.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the Layout of docs/architecture.md', () => {
  it('is what npm run docs:layout writes from the tree now', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    expect(doc, 'docs/architecture.md is stale: run npm run docs:layout').toBe(
      fillLayoutRegion(doc, sourceLayout(ROOT)),
    );
  });

  it('has a line for every folder of src/, and none for a folder that is gone', () => {
    expect(folderLinesOutOfStep(ROOT)).toEqual({ missing: [], gone: [] });
  });

  it("takes a file's line from the first sentence of its header, before a colon, without doc citations", () => {
    const text = [
      '// The order gate of an account (docs/risk-rules.md#the-order-gate): what an order meets. More after.',
      '// A second line.',
      'import x from "y";',
    ].join('\n');
    expect(headerSentence(text)).toBe('The order gate of an account');
    expect(headerSentence('/**\n * Keys `a: b` of a map, in order.\n */\nexport {};')).toBe(
      'Keys `a: b` of a map, in order',
    );
    expect(headerSentence("export * from './dates.js';\nexport * from './holidays.js';\n")).toBe(
      're-exports dates, holidays',
    );
  });
});
