// An output file written beside its target under a temporary name and renamed over it only when complete, so an
// input that fails half-way leaves no partial file (and an older file of that name untouched).
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class AtomicFile {
  private readonly temp: string;
  private fd: number | undefined;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.temp = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
    this.fd = openSync(this.temp, 'w');
  }

  write(data: string | Uint8Array): void {
    if (typeof data === 'string') writeSync(this.fd!, data);
    else writeSync(this.fd!, data);
  }

  /** Closes the file and puts it in place. */
  commit(): void {
    closeSync(this.fd!);
    this.fd = undefined;
    renameSync(this.temp, this.path);
  }

  /** Closes and removes the partial file; safe to call after commit (does nothing then). */
  discard(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.temp, { force: true });
  }
}

/** Writes a whole text atomically. */
export function writeFileAtomically(path: string, text: string): void {
  const file = new AtomicFile(path);
  try {
    file.write(text);
    file.commit();
  } finally {
    file.discard();
  }
}
