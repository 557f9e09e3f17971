// A run's events.jsonl as the journal hands it over: the file holds the chunks' UTF-8, in order, and close() gives its
// sha256, whatever the chunks' sizes and characters (the writer reuses one buffer for them).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventsFile } from '../../src/reports/events-file.js';

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
});
