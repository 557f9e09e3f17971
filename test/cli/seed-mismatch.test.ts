// docs/api.md#persistence: the refusal of a db made from another seed names that seed, where the two first differ,
// and the three ways forward (delete the file, go on with its seed and reset, or another --db).
import { describe, expect, it } from 'vitest';
import { firstDifference, seedMismatchMessage } from '../../src/cli/seed-mismatch.js';

describe('seed mismatch', () => {
  it('firstDifference: the first line that differs, both sides, or the end of the shorter file', () => {
    expect(firstDifference('a\nb\nc\n', 'a\nB\nc\n')).toBe('first difference at line 2: it was "b", it is "B"');
    expect(firstDifference('a\n', '# note\na\n')).toBe('first difference at line 1: it was "a", it is "# note"');
    // 'a\n' splits into ['a', '']: line 3 is past its end.
    expect(firstDifference('a\n', 'a\n\nseed: 9\n')).toBe(
      'first difference at line 3: it was (end of file), it is "seed: 9"',
    );
  });

  it('names the recorded seed file and hash, and the three ways forward', () => {
    const made = { sha256: 'ab'.repeat(32), file: '/srv/seed.yaml', text: 'firms:\n' };
    const message = seedMismatchMessage('/srv/s.sqlite', made, 'new.yaml', '# edited\nfirms:\n');
    expect(message.split('\n')).toEqual([
      'holds a sandbox made from another seed file: it was made from /srv/seed.yaml (sha256 abababababab…), not new.yaml',
      'first difference at line 1: it was "firms:", it is "# edited"',
      'Ways forward:',
      '  - start afresh from new.yaml: delete /srv/s.sqlite (and its -wal and -shm files, if any)',
      '  - go on with the sandbox in it: start with the seed it was made from (--seed /srv/seed.yaml); POST /v1/sandbox/reset then empties it back to that seed',
      '  - keep it as it is and start new.yaml on another file: --db OTHER_FILE (or --memory)',
    ]);
  });

  it('a file made before the seed path was recorded: the hash only, no difference', () => {
    const made = { sha256: 'cd'.repeat(32), file: undefined, text: undefined };
    const message = seedMismatchMessage('s.sqlite', made, 'new.yaml', 'firms:\n');
    expect(message).toContain('made from a seed file with sha256 cdcdcdcdcdcd… (this file is older');
    expect(message).not.toContain('first difference');
    expect(message).toContain('--seed THAT_FILE');
  });
});
