// Renders every generated region of the docs from the examples (examples.ts). Each example runs in its own
// scratch folder, all at once; an id in a doc without an example, or an example no doc uses, is an error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/market/holiday-file.js';
import { DOC_EXAMPLES } from './examples.js';
import { fillRegions, regionIds } from './generated-blocks.js';
import { Scratch } from './run-propsim.js';

export const DOC_FILES = ['README.md', 'docs/scenarios.md', 'docs/backtesting.md', 'docs/calendar.md'] as const;

export interface RenderedDoc {
  file: string;
  current: string;
  rendered: string;
}

/** Every doc as it is and as the examples make it; slow examples only with `slow` (their regions stay). */
export async function renderDocs(options: { slow: boolean }): Promise<RenderedDoc[]> {
  const docs = DOC_FILES.map((file) => ({ file, current: readFileSync(join(packageRoot(), file), 'utf8') }));
  const used = new Set(docs.flatMap((d) => regionIds(d.current)));
  const known = new Set(DOC_EXAMPLES.map((e) => e.id));
  const unknown = [...used].filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new Error(`docs name examples that scripts/docs/examples.ts does not define: ${unknown.join(', ')}`);
  const unused = [...known].filter((id) => !used.has(id));
  if (unused.length > 0)
    throw new Error(`examples no doc uses (remove them or add their markers): ${unused.join(', ')}`);
  const examples = DOC_EXAMPLES.filter((e) => options.slow || !e.slow);
  const blocks = new Map(
    await Promise.all(
      examples.map(async (example) => {
        const scratch = new Scratch();
        try {
          return [example.id, await example.render(scratch)] as const;
        } finally {
          scratch.remove();
        }
      }),
    ),
  );
  return docs.map((d) => ({ ...d, rendered: fillRegions(d.current, blocks) }));
}
