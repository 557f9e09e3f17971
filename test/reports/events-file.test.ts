// A run's events.jsonl as the journal hands it over: the file holds the chunks' UTF-8, in order, and close() gives its
// sha256, whatever the chunks' sizes and characters (the writer reuses one buffer for them), whether the run's thread
// writes it at close (a short journal) or a writer thread as the run goes (past WAKE_BYTES), and a write that
// fails on the writer thread is reported to the run.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventsFile } from '../../src/reports/events-file.js';
import { RING_BYTES } from '../../src/reports/events-ring.js';

describe('EventsFile', () => {
  it('writes every chunk as UTF-8, in order, and closes with the sha256 of the file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'propsim-events-')), 'events.jsonl');
    const chunks = [
      '{"seq":1,"data":"plain"}\n',
      // Wider than the first chunk, in characters of 2, 3 and 4 UTF-8 bytes (a surrogate pair).
      `${'{"seq":2,"data":"é — € 𝄞"}\n'.repeat(500)}`,
      '{"seq":3,"data":"‘shorter’ again"}\n',
      '',
      `{"seq":4,"data":"${'€'.repeat(10_000)}"}\n`,
    ];
    const file = new EventsFile(path);
    for (const chunk of chunks) file.write(chunk);
    const sha256 = file.close();
    const expected = Buffer.from(chunks.join(''), 'utf8');
    expect(readFileSync(path).equals(expected)).toBe(true);
    expect(sha256).toBe(createHash('sha256').update(expected).digest('hex'));
    expect(file.close(), 'closing again gives the same hash').toBe(sha256);
    expect(() => file.write('{"seq":5}\n')).toThrow(/is closed/);
  });

  it('writes a journal longer than the ring through its writer thread: the same bytes and sha256', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'propsim-events-')), 'events.jsonl');
    // Lines of every width, in chunks as the journal hands them over, until the journal is 2.5 rings long; one chunk
    // longer than the ring itself.
    const chunks: string[] = [];
    let bytes = 0;
    for (let seq = 0; bytes < 2.5 * RING_BYTES; seq++) {
      const chunk = `{"seq":${seq},"data":"${'é€𝄞x'.repeat(seq % 97)}"}\n`.repeat(1 + (seq % 128));
      chunks.push(chunk);
      bytes += Buffer.byteLength(chunk);
    }
    chunks.push(`{"seq":"long","data":"${'€'.repeat(RING_BYTES)}"}\n`);
    const file = new EventsFile(path);
    for (const chunk of chunks) file.write(chunk);
    const sha256 = file.close();
    const expected = Buffer.from(chunks.join(''), 'utf8');
    expect(readFileSync(path).equals(expected), 'the file holds every chunk, in order').toBe(true);
    expect(sha256).toBe(createHash('sha256').update(expected).digest('hex'));
  });

  it('reports a write that fails, naming the file; discarding the file afterwards does not throw', () => {
    // /dev/full takes the open and refuses every write (ENOSPC), as a full disk would.
    const long = new EventsFile('/dev/full');
    const chunk = `{"seq":1,"data":"${'x'.repeat(64 * 1024)}"}\n`;
    expect(() => {
      for (let i = 0; i < 200; i++) long.write(chunk); // 13 MB: the writer thread fails, the run finds out
      long.close();
    }).toThrow(/cannot write \/dev\/full: ENOSPC/);
    expect(() => long.discard()).not.toThrow();
    const short = new EventsFile('/dev/full');
    short.write('{"seq":1}\n');
    expect(() => short.close(), 'a short journal is written at close').toThrow(/ENOSPC/);
    expect(() => short.discard()).not.toThrow();
  });
});
