// `npm run docs:layout`: writes docs/architecture.md's Layout of src/ from the files' header comments
// (scripts/docs/source-layout.ts), between its generated markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillLayoutRegion } from './docs/layout-region.js';
import { sourceLayout } from './docs/source-layout.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const file = join(root, 'docs', 'architecture.md');
const text = readFileSync(file, 'utf8');
const next = fillLayoutRegion(text, sourceLayout(root));
if (next === text) console.log('docs:layout: docs/architecture.md is current');
else {
  writeFileSync(file, next);
  console.log('docs:layout: docs/architecture.md rewritten');
}
