// A --db file the sandbox cannot use (docs/api.md#persistence): the CLI prints the message and exits 2. Kept apart
// from the SQLite code so that the CLI's error table does not load the driver.

export class StoreFileError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`--db ${file}: ${problem}`);
    this.name = 'StoreFileError';
  }
}

/** SQLite's answers for a file it cannot use, as one message; other errors go on as they are. */
export function storeFileError(file: string, error: unknown): unknown {
  if (error instanceof StoreFileError) return error;
  if (error instanceof SyntaxError)
    return new StoreFileError(file, `has a damaged journal line (${error.message}); it was left as it is`);
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message;
  switch (code) {
    case 'SQLITE_NOTADB':
      return new StoreFileError(file, 'is not an SQLite database; it was left as it is. Pick another --db');
    case 'SQLITE_CORRUPT':
      return new StoreFileError(file, `is damaged (${message}); it was left as it is. Move it aside to start afresh`);
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new StoreFileError(file, 'is in use by another process (another propsim serve?)');
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
      return new StoreFileError(file, `cannot be opened for writing (${message})`);
  }
  return error;
}

/** An error of SQLite itself (better-sqlite3's codes start with SQLITE_), rather than of the bytes it gave back. */
export function isSqliteError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}
