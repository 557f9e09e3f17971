// An export without a fill-id column cannot be de-duplicated: a fill exported twice is kept twice. The import says
// so once per file, with the column names it looked for; `--map id=COLUMN` turns de-duplication back on.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importFills, type FillImportOptions } from '../../src/import/import-fills.js';
import { importWarnings } from '../../src/reports/fills-import-table.js';
import { tempFiles } from '../market/market-test-files.js';

const fixture = (name: string): string => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const files = tempFiles();
afterAll(() => files.remove());

// tradovate-fills.csv with its `Fill ID` column renamed: Fill 1002 is on lines 3 and 4.
const renamed = files.write(
  'renamed.csv',
  readFileSync(fixture('tradovate-fills.csv'), 'utf8').replace('Fill ID,', 'FillNo,'),
);
const options: FillImportOptions = { format: 'tradovate', tz: 'America/Chicago', dateOrder: 'mdy' };

describe('an export whose fill-id column is missing or renamed', () => {
  it('keeps a fill exported twice twice, and names the file and the columns looked for, once per file', () => {
    const imported = importFills([renamed, renamed], options);
    expect(imported.withoutIds).toEqual([
      { file: renamed, looked: ['Fill ID', 'id'] },
      { file: renamed, looked: ['Fill ID', 'id'] },
    ]);
    // DEMO123's 3 rows, twice over: 6 read, 6 kept, none deduplicated.
    expect(imported.counts.get('DEMO123')).toEqual({ read: 6, kept: 6, deduplicated: 0, skipped: 0 });
    expect(imported.warnings).toEqual([]);
  });

  it('is told before the duplicates, with how to turn de-duplication on in the words of the caller', () => {
    const imported = importFills([renamed], options);
    expect(importWarnings(imported, 'name the column with --map id=COLUMN')).toEqual([
      `${renamed}: no fill-id column (looked for Fill ID or id): de-duplication is off, so a fill exported twice is kept twice; name the column with --map id=COLUMN`,
    ]);
  });

  it('de-duplicates again with --map id=FillNo', () => {
    const imported = importFills([renamed], { ...options, map: ['id=FillNo'] });
    expect(imported.withoutIds).toEqual([]);
    expect(imported.warnings).toEqual([`${renamed}:4: FillNo 1002 was already read at ${renamed}:3; kept once`]);
  });

  it('refuses a --map to a column the export does not have, even for the optional id', () => {
    expect(() => importFills([fixture('tradovate-fills.csv')], { ...options, map: ['id=FillNo'] })).toThrow(
      `${fixture('tradovate-fills.csv')}:1: expected a column named FillNo for the id of each fill in a tradovate export (--map id=FillNo)`,
    );
  });
});
