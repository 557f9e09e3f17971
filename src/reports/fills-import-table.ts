// What a broker export's import tells the user on stderr, the same from `propsim import fills` and from a back-test
// that reads the export directly (docs/backtesting.md#importing-broker-exports): the files read without
// de-duplication and the fills kept once, then per trader, rows read, kept, deduplicated and skipped.
import type { ImportedFills } from '../import/import-fills.js';
import { formatTable } from './text-table.js';

/** `N fills of K traders` and the table of each trader's counts. */
export function fillsImportCounts(imported: ImportedFills): { headline: string; table: string } {
  const rows = [...imported.counts].map(([trader, c]) =>
    [trader, c.read, c.kept, c.deduplicated, c.skipped].map(String),
  );
  return {
    headline: `${imported.fills.length} fills of ${rows.length} trader${rows.length === 1 ? '' : 's'}`,
    table: formatTable(['trader', 'read', 'kept', 'deduplicated', 'skipped'], rows),
  };
}

/**
 * The warnings, one per file without a fill-id column (with `turnOn`, how the caller's user names that column), then
 * one per fill kept once.
 */
export function importWarnings(imported: ImportedFills, turnOn: string): string[] {
  const withoutIds = imported.withoutIds.map(
    ({ file, looked }) =>
      `${file}: no fill-id column (looked for ${looked.join(' or ')}): de-duplication is off, so a fill exported twice is kept twice; ${turnOn}`,
  );
  return [...withoutIds, ...imported.warnings];
}
