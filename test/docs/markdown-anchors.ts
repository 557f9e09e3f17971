// The anchors GitHub gives a Markdown file's headings, so that a citation like `docs/calendar.md#holidays` can be
// checked without a network: lowercase, punctuation and symbols dropped (backticks, slashes, dots, `×`), each
// space turned into '-', and a repeated heading numbered `-1`, `-2`, … Lines inside ``` fences are not headings.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The anchor GitHub derives from a heading's text (inline links keep their text, `*` and `` ` `` go). */
export function githubAnchor(headingText: string): string {
  const text = headingText.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a Markdown text, in order, with GitHub's numbering of repeated headings. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = githubAnchor(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Text files under `dir` (recursively), skipping dependencies, build output and compressed data. */
export function textFilesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : textFilesUnder(path);
    return name.endsWith('.gz') ? [] : [path];
  });
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
