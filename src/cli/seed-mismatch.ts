// The refusal of a --db file made from another seed file (docs/api.md#persistence): which seed the file was made
// from, where the seed given now first differs from it, and the three ways forward. The file keeps the seed's path
// and text (meta seed_file, seed_text) from its creation; a file made before it did names the hash only.

/** What a db file recorded about the seed it was made from. */
export interface MadeFromSeed {
  sha256: string;
  /** Absolute path, when recorded. */
  file: string | undefined;
  /** The seed file's text, when recorded. */
  text: string | undefined;
}

/** The message after `--db FILE: `. */
export function seedMismatchMessage(db: string, made: MadeFromSeed, seedFile: string, seedText: string): string {
  const origin =
    made.file === undefined
      ? `a seed file with sha256 ${made.sha256.slice(0, 12)}… (this file is older than the record of its seed's path)`
      : `${made.file} (sha256 ${made.sha256.slice(0, 12)}…)`;
  const lines = [`holds a sandbox made from another seed file: it was made from ${origin}, not ${seedFile}`];
  if (made.text !== undefined) lines.push(firstDifference(made.text, seedText));
  lines.push(
    'Ways forward:',
    `  - start afresh from ${seedFile}: delete ${db} (and its -wal and -shm files, if any)`,
    `  - go on with the sandbox in it: start with the seed it was made from (--seed ${made.file ?? 'THAT_FILE'}); POST /v1/sandbox/reset then empties it back to that seed`,
    `  - keep it as it is and start ${seedFile} on another file: --db OTHER_FILE (or --memory)`,
  );
  return lines.join('\n');
}

/** The first line where the two texts differ, both sides shown. */
export function firstDifference(before: string, now: string): string {
  const a = before.split('\n');
  const b = now.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const shown = (line: string | undefined) => (line === undefined ? '(end of file)' : JSON.stringify(clip(line)));
  return `first difference at line ${i + 1}: it was ${shown(a[i])}, it is ${shown(b[i])}`;
}

function clip(line: string): string {
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}
