// A data file a queue worker reads must hold the bytes its coordinator hashed (docs/scaling.md#data-files). Checking
// the file before the cell is not enough: it can be rewritten in place between the check and the read, or while the
// cell reads it. So the reader hashes the bytes it reads, as it reads them, and compares at its end; a reader that
// stops early (a period that ends before the file does) hashes the rest of the file then, from where it stopped.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { Transform } from 'node:stream';
import { MarketDataError } from './market-data-error.js';

/** The hashing of one read of one file, expected to give `sha256`. */
export class ContentCheck {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private done = false;

  constructor(
    readonly path: string,
    readonly sha256: string,
  ) {}

  /** A pass-through stream between the file and its reader: hashes every byte the reader is given, in order. */
  tap(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        if (!this.done) {
          this.hash.update(chunk);
          this.bytes += chunk.length;
        }
        callback(null, chunk);
      },
    });
  }

  /** The file could not be read (its reader's own error says so): there is nothing to compare. */
  abandon(error: NodeJS.ErrnoException): void {
    // An early stop destroys the file's stream with this code: the rest is still hashed by finish().
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') this.done = true;
  }

  /** After the reader stopped: hashes the bytes it did not read and throws if the whole is not the expected content. */
  finish(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.hashRest();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw contentChanged(this.path, this.sha256, `no longer readable (${code})`);
    }
    const got = this.hash.digest('hex');
    if (got !== this.sha256) throw contentChanged(this.path, this.sha256, `sha256 ${got}`);
  }

  private hashRest(): void {
    const buffer = Buffer.allocUnsafe(1 << 20);
    const fd = openSync(this.path, 'r');
    try {
      for (let n = readSync(fd, buffer, 0, buffer.length, this.bytes); n > 0;) {
        this.hash.update(buffer.subarray(0, n));
        this.bytes += n;
        n = readSync(fd, buffer, 0, buffer.length, this.bytes);
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** The whole file, checked against `sha256` when given. */
export function readCheckedFile(path: string, sha256: string | undefined): Buffer {
  const bytes = readFileSync(path);
  if (sha256 === undefined) return bytes;
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== sha256) throw contentChanged(path, sha256, `sha256 ${got}`);
  return bytes;
}

function contentChanged(path: string, expected: string, got: string): MarketDataError {
  return new MarketDataError(
    path,
    0,
    undefined,
    `the content the coordinator hashed, sha256 ${expected} (docs/scaling.md#data-files)`,
    `${got}: the file changed after this worker checked it`,
  );
}
