// What a broker export's import tells the user on stderr, the same from `propsim import fills` and from a back-test
// that reads the export directly (docs/backtesting.md#importing-broker-exports): per trader, rows read, kept,
// deduplicated and skipped.
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
