// The holiday file's JSON twin (src/market/holiday-file.ts): read instead of the YAML only while the file has the
// text the twin was made from, so an edited holiday file is never shadowed by a stale twin.
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultHolidayFilePath,
  defaultHolidayTwinPath,
  loadHolidayFile,
  writeHolidayTwin,
} from '../../src/market/holiday-file.js';

describe('the holiday file and its JSON twin', () => {
  it('npm run build wrote the twin of the shipped file, and it gives the table its YAML gives', () => {
    const twin = JSON.parse(readFileSync(defaultHolidayTwinPath(), 'utf8')) as { source_sha256: string };
    const yaml = readFileSync(defaultHolidayFilePath(), 'utf8');
    expect(twin.source_sha256, 'made from the file as it is').toBe(createHash('sha256').update(yaml).digest('hex'));
    expect(loadHolidayFile()).toEqual(loadHolidayFile(defaultHolidayFilePath(), undefined));
  });

  it('is read while the file has the text it was made from, and not once the file changes or if it is broken', () => {
    const dir = mkdtempSync(join(tmpdir(), 'propsim-holidays-'));
    const file = join(dir, 'holidays.yaml');
    const twinFile = join(dir, 'holidays.json');
    copyFileSync(defaultHolidayFilePath(), file);
    writeHolidayTwin(file, twinFile);
    const fromYaml = loadHolidayFile(file, undefined);
    // A twin whose document says something else, under the file's sha256: what is read is the twin.
    const twin = JSON.parse(readFileSync(twinFile, 'utf8')) as { document: { holidays: unknown[] } };
    expect(twin.document.holidays.length).toBeGreaterThan(1);
    twin.document.holidays = twin.document.holidays.slice(1);
    writeFileSync(twinFile, JSON.stringify(twin));
    const fromTwin = loadHolidayFile(file, twinFile);
    expect(fromTwin, 'the twin was read').not.toEqual(fromYaml);
    appendFileSync(file, '# edited\n');
    expect(loadHolidayFile(file, twinFile), 'a changed file: its own text is read').toEqual(fromYaml);
    writeFileSync(twinFile, '{ not json');
    expect(loadHolidayFile(file, twinFile), 'a broken twin is passed over').toEqual(fromYaml);
  });
});
