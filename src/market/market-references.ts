// Market files named by reference in a replay's journal (docs/scenarios.md#the-journal): what the journal records
// of each file (its path relative to the scenario's folder, its spec, bytes and sha256), and, for the journal's
// readers, the prints of the files so named, once each file is checked to be the one the run read.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { MarketFileReference, MarketPrint } from '../core/kernel/persistence/market-prints.js';
import { CanonicalSymbols } from './canonical-symbols.js';
import type { MarketFileSpec } from './market-file-spec.js';
import { marketPrintBatches } from './sources.js';
import { SymbolTable } from './symbol-table.js';
import type { TickBatch } from './tick-batch.js';

/** A referenced market file is missing, changed, or named in a way this reader does not understand. */
export class MarketReferenceError extends Error {
  override name = 'MarketReferenceError';
}

/** What the journal records of each file: paths relative to `folder` (the scenario's), with forward slashes. */
export function marketFileReferences(specs: readonly MarketFileSpec[], folder: string): MarketFileReference[] {
  return specs.map((spec) => {
    const { bytes, sha256 } = fingerprint(spec.path);
    return {
      path: relative(folder, spec.path).split(sep).join('/'),
      ...readingOf(spec),
      bytes,
      sha256,
    };
  });
}

/**
 * The merged prints of the files a journal references (its `input.market_files` data), their paths resolved
 * against `folder`, each file first checked to have the bytes and sha256 the run read. The reader's column batches
 * are kept (~32 bytes a print) and each print is made as it is iterated: millions of print objects held at once cost
 * a daily position report of a large run most of its time and memory.
 */
export async function referencedMarketPrints(files: unknown, folder: string): Promise<Iterable<MarketPrint>> {
  const specs = referencesOf(files).map((ref) => checkedSpec(ref, folder));
  const batches: TickBatch[] = [];
  for await (const batch of marketPrintBatches(specs, new SymbolTable())) batches.push(batch);
  return { [Symbol.iterator]: () => printsOf(batches) };
}

function* printsOf(batches: readonly TickBatch[]): Generator<MarketPrint> {
  const canonical = new CanonicalSymbols();
  for (const batch of batches)
    for (let row = 0; row < batch.length; row++)
      yield {
        symbol: canonical.of(batch, row),
        priceTicks: batch.priceTicks[row]!,
        size: batch.size[row]!,
        timeMs: batch.timeMs[row]!,
      };
}

function referencesOf(files: unknown): MarketFileReference[] {
  if (!Array.isArray(files)) throw new MarketReferenceError('input.market_files: files is not a list');
  return files.map((file: unknown, i) => {
    const where = `input.market_files: files[${i}]`;
    const ref = (typeof file === 'object' && file !== null ? file : {}) as Record<string, unknown>;
    const valid =
      typeof ref.path === 'string' &&
      ref.path !== '' &&
      (ref.format === 'ticks' || ref.format === 'bars' || ref.format === 'databento') &&
      (ref.instrument === undefined || typeof ref.instrument === 'string') &&
      (ref.bar_ms === undefined || Number.isSafeInteger(ref.bar_ms)) &&
      (ref.sort === undefined || typeof ref.sort === 'boolean') &&
      Number.isSafeInteger(ref.bytes) &&
      typeof ref.sha256 === 'string';
    if (!valid)
      throw new MarketReferenceError(
        `${where}: expected {path, format: ticks|bars|databento, instrument?, bar_ms?, sort?, bytes, sha256}, got ${JSON.stringify(file)}`,
      );
    return ref as unknown as MarketFileReference;
  });
}

function checkedSpec(ref: MarketFileReference, folder: string): MarketFileSpec {
  const path = isAbsolute(ref.path) ? ref.path : resolve(folder, ref.path);
  let found: { bytes: number; sha256: string };
  try {
    found = fingerprint(path);
  } catch (error) {
    if (error instanceof MarketReferenceError) throw error;
    throw new MarketReferenceError(
      `market file ${ref.path}: not found (looked for ${path}); the journal's market paths are relative to the scenario file's folder`,
    );
  }
  if (found.bytes !== ref.bytes || found.sha256 !== ref.sha256)
    throw new MarketReferenceError(
      `market file ${path} has changed since the run: it has ${found.bytes} bytes (sha256 ${found.sha256}), the run read ${ref.bytes} bytes (sha256 ${ref.sha256})`,
    );
  return { path, ...readingOf(ref) };
}

/** How a file is read (its format and options), the same in a spec and in the journal's reference. */
function readingOf(file: Omit<MarketFileSpec, 'path'>): Omit<MarketFileSpec, 'path'> {
  return {
    format: file.format,
    ...(file.instrument === undefined ? {} : { instrument: file.instrument }),
    ...(file.bar_ms === undefined ? {} : { bar_ms: file.bar_ms }),
    ...(file.sort === undefined ? {} : { sort: file.sort }),
  };
}

/** A file's size and sha256, read a megabyte at a time (about 1 GB/s: a small share of reading its prints). */
function fingerprint(path: string): { bytes: number; sha256: string } {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  let bytes = 0;
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      hash.update(buffer.subarray(0, n));
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  if (bytes !== statSync(path).size) throw new MarketReferenceError(`market file ${path} changed while it was read`);
  return { bytes, sha256: hash.digest('hex') };
}
