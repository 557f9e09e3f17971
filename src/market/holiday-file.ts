// Reads a holiday data file (YAML or JSON) into a HolidayTable. The default file ships with the package in
// fixtures/calendar/; users pass their own with the same shape (docs/calendar.md).
// The YAML parser is far slower than JSON.parse over the default file, read at the start of every command (and of
// every back-test worker): `npm run build` writes its JSON twin (dist/calendar/), which names the sha256 of the
// text it was made from and is read instead only while the file still has that text.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** Where `npm run build` writes the default holiday file's JSON twin. */
export function defaultHolidayTwinPath(): string {
  return join(packageRoot(), 'dist', 'calendar', 'cme-holidays.json');
}

interface HolidayTwin {
  source_sha256: string;
  document: unknown;
}

/**
 * @param twinPath the JSON twin of the file (written by writeHolidayTwin), read instead of the file's YAML when it
 *   names the file's sha256; the default file's own twin unless given
 */
export function loadHolidayFile(
  path: string = defaultHolidayFilePath(),
  twinPath: string | undefined = path === defaultHolidayFilePath() ? defaultHolidayTwinPath() : undefined,
): HolidayTable {
  return parseHolidayDocument(loadHolidayDocument(path, twinPath), path);
}

/**
 * The holiday file's document as read, before it is checked: what a queue shard carries so that the worker runs on
 * the coordinator's calendar (docs/scaling.md#data-files). Arguments as loadHolidayFile's.
 */
export function loadHolidayDocument(
  path: string = defaultHolidayFilePath(),
  twinPath: string | undefined = path === defaultHolidayFilePath() ? defaultHolidayTwinPath() : undefined,
): unknown {
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
  return twinDocument(twinPath, text) ?? yamlDocument(path, text);
}

/** Writes the JSON twin of a holiday file (`npm run build`, for the default file). */
export function writeHolidayTwin(path: string = defaultHolidayFilePath(), twinPath = defaultHolidayTwinPath()): void {
  const text = readFileSync(path, 'utf8');
  const twin: HolidayTwin = { source_sha256: sha256(text), document: yamlDocument(path, text) };
  mkdirSync(dirname(twinPath), { recursive: true });
  writeFileSync(twinPath, JSON.stringify(twin) + '\n');
}

function yamlDocument(path: string, text: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    throw new HolidayFileError(path, '(syntax)', `valid YAML or JSON: ${(error as Error).message}`);
  }
}

/** The twin's document if it was made from exactly this text; undefined if there is none, it is stale or unreadable. */
function twinDocument(twinPath: string | undefined, text: string): unknown {
  if (twinPath === undefined || !existsSync(twinPath)) return undefined;
  let twin: Partial<HolidayTwin>;
  try {
    twin = JSON.parse(readFileSync(twinPath, 'utf8')) as Partial<HolidayTwin>;
  } catch {
    return undefined; // a cache, not an input: the file itself is read instead
  }
  return twin.source_sha256 === sha256(text) ? twin.document : undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
