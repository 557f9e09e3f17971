// Reads a holiday data file (YAML or JSON) into a HolidayTable. The default file ships with the package in
// fixtures/calendar/; users pass their own with the same shape (docs/calendar.md).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { HolidayFileError, parseHolidayDocument, type HolidayTable } from '../core/calendar/holidays.js';

/** The project root: the nearest folder above this module holding propsim's package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && /"name":\s*"propsim"/.test(readFileSync(manifest, 'utf8'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the propsim package root above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export function defaultHolidayFilePath(): string {
  return join(packageRoot(), 'fixtures', 'calendar', 'cme-holidays.yaml');
}

export function loadHolidayFile(path: string = defaultHolidayFilePath()): HolidayTable {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HolidayFileError(
      path,
      '(file)',
      `a readable file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new HolidayFileError(path, '(syntax)', `valid YAML or JSON: ${(error as Error).message}`);
  }
  return parseHolidayDocument(doc, path);
}
