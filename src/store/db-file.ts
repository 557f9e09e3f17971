// Opening the sandbox's SQLite file (docs/api.md#persistence). The file is checked before anything is written to it:
// a file that is not SQLite, a damaged one, another program's database or one from a newer propsim is refused with a
// StoreFileError naming it, and left as it was. The connection holds the file exclusively, so a second server on the
// same file is refused too instead of interleaving its writes.
import Database from 'better-sqlite3';
import { StoreFileError, storeFileError } from './store-file-error.js';

/** "PRSB" in the SQLite header's application id: the file is a propsim sandbox. */
const APPLICATION_ID = 0x50525342;
export const SCHEMA_VERSION = 1;

export function openDbFile(file: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 0 });
    // Held from the first read to the close: no -shm file, and no second writer.
    db.pragma('locking_mode = EXCLUSIVE');
    checkIdentity(db, file);
    db.pragma('journal_mode = WAL');
    // Each commit is on disk when it returns: the answers it releases may say so (docs/api.md#persistence).
    db.pragma('synchronous = FULL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, line TEXT NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS snapshot (part INTEGER PRIMARY KEY, at_line INTEGER NOT NULL, state BLOB NOT NULL) STRICT;
    `);
    return db;
  } catch (error) {
    db?.close();
    throw storeFileError(file, error);
  }
}

/** The journal lines that start with `prefix`, oldest first, each ending in a newline; SQLite joins them. */
export function readJournalText(db: Database.Database, prefix: string): string {
  const text = db
    .prepare(
      `SELECT group_concat(line || char(10), '' ORDER BY seq) FROM journal
       WHERE substr(line, 1, length(:prefix)) = :prefix`,
    )
    .pluck()
    .get({ prefix }) as string | null;
  return text ?? '';
}

/** A new (empty) database is made a sandbox db; anything else must already be one, of a schema this release reads. */
function checkIdentity(db: Database.Database, file: string): void {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (applicationId === APPLICATION_ID) {
    if (version > SCHEMA_VERSION)
      throw new StoreFileError(
        file,
        `made by a newer propsim (schema ${version}; this one reads ${SCHEMA_VERSION}): upgrade propsim, or use another --db`,
      );
    return;
  }
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
  if (applicationId !== 0 || tables.length > 0)
    throw new StoreFileError(
      file,
      `is another program's SQLite database (${tables.length > 0 ? `tables ${tables.join(', ')}` : `application id ${applicationId}`}), not a propsim sandbox; it was left as it is. Pick another --db`,
    );
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}
