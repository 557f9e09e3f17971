// The repository stands on its own: comments, tests and docs cite the project's own docs/ by file and GitHub
// heading anchor (`docs/risk-rules.md#daily-loss`), every such citation and every relative link between the docs
// resolves, and nothing refers to design documents that live outside the repository.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { githubAnchor, headingAnchors, readText, textFilesUnder } from './markdown-anchors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const files = (...paths: string[]): string[] =>
  paths.flatMap((path) =>
    path.endsWith('.md') ? [join(ROOT, path)].filter((p) => existsSync(p)) : textFilesUnder(join(ROOT, path)),
  );

const anchorsByFile = new Map<string, Set<string>>();
function anchorsOf(path: string): Set<string> {
  let anchors = anchorsByFile.get(path);
  if (anchors === undefined) {
    anchors = headingAnchors(readText(path));
    anchorsByFile.set(path, anchors);
  }
  return anchors;
}

/** Why a cited or linked file, with its anchor if any, does not resolve; undefined when it does. */
function brokenTarget(path: string, anchor: string | undefined): string | undefined {
  if (!existsSync(path)) return `${relative(ROOT, path)} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!path.endsWith('.md')) return undefined;
  return anchorsOf(path).has(anchor) ? undefined : `${relative(ROOT, path)} has no heading with anchor #${anchor}`;
}

interface Problem {
  readonly at: string;
  readonly cited: string;
  readonly why: string;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

describe('GitHub heading anchors', () => {
  it('are lowercase, with punctuation dropped and spaces turned into hyphens', () => {
    expect(githubAnchor('Equity and the max-loss floor'), 'hyphens stay, spaces become hyphens').toBe(
      'equity-and-the-max-loss-floor',
    );
    expect(githubAnchor('`propsim report daily-positions`'), 'backticks are dropped').toBe(
      'propsim-report-daily-positions',
    );
    expect(githubAnchor('Reading report.html'), 'dots are dropped').toBe('reading-reporthtml');
    expect(githubAnchor('Per trader × cell (`traders.csv`)'), '× goes, leaving two spaces, so two hyphens').toBe(
      'per-trader--cell-traderscsv',
    );
    expect(githubAnchor('src/core/ and user_risk_halt'), 'slashes go, underscores stay').toBe(
      'srccore-and-user_risk_halt',
    );
  });

  it('number a repeated heading and ignore # lines in code fences', () => {
    const anchors = headingAnchors('# A\n## Notes\n```yaml\n# not a heading\n```\n## Notes\n');
    expect([...anchors], 'the second "Notes" is notes-1; the fenced comment is no heading').toEqual([
      'a',
      'notes',
      'notes-1',
    ]);
  });
});

describe('citations of docs/ resolve', () => {
  it('every docs/<file>.md#<anchor> in src, test, bench, scripts, scenarios, docs and README.md names an existing heading', () => {
    const citation = /\bdocs\/([\w.-]+\.md)(?:#([\p{L}\p{N}_-]+))?/gu;
    const problems: Problem[] = [];
    let citations = 0;
    for (const file of files('src', 'test', 'bench', 'scripts', 'scenarios', 'docs', 'README.md')) {
      const text = readText(file);
      for (const match of text.matchAll(citation)) {
        citations += 1;
        const why = brokenTarget(join(ROOT, 'docs', match[1] ?? ''), match[2]);
        if (why !== undefined)
          problems.push({ at: `${relative(ROOT, file)}:${lineOf(text, match.index)}`, cited: match[0], why });
      }
    }
    expect(
      citations,
      'the code base cites its docs (a regex that matches nothing would check nothing)',
    ).toBeGreaterThan(100);
    expect(problems, 'each cited doc file exists and has a heading with the cited anchor').toEqual([]);
  });

  it('every relative Markdown link in docs/ and README.md resolves, anchors included', () => {
    const link = /\]\(([^)\s]+)\)/g;
    const problems: Problem[] = [];
    let links = 0;
    for (const file of files('docs', 'README.md').filter((f) => f.endsWith('.md'))) {
      const text = readText(file);
      for (const match of text.matchAll(link)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/i.test(target)) continue;
        links += 1;
        const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
        const path = pathPart === '' ? file : resolve(dirname(file), pathPart);
        const why = brokenTarget(path, anchor);
        if (why !== undefined)
          problems.push({ at: `${relative(ROOT, file)}:${lineOf(text, match.index)}`, cited: target, why });
      }
    }
    expect(links, 'the docs link to each other').toBeGreaterThan(20);
    expect(problems, 'each link points at an existing file and heading').toEqual([]);
  });
});

describe('nothing refers to documents outside the repository', () => {
  // Built from parts so that this file does not trip its own check.
  const shared = ['..', 'shared'].join('/');
  const names = ['RU' + 'LES', 'CONTRA' + 'CTS', 'ARCHITEC' + 'TURE', 'A' + 'PI'];
  const forbidden: readonly string[] = [
    shared,
    `${names[0]} §`,
    `spec/${'interface'}.md`,
    ...names.map((name) => `${name}.md`),
  ];
  /** The first three names alone, in capitals, as a citation ("<name> §3", "<name> decision 2"). */
  const bareName = new RegExp(`\\b(${names.slice(0, 3).join('|')})\\b`);

  it('no file in src, test, bench, docs, scripts, fixtures, scenarios, .ci or README.md mentions them', () => {
    const problems: Problem[] = [];
    for (const file of files('src', 'test', 'bench', 'docs', 'scripts', 'fixtures', 'scenarios', '.ci', 'README.md')) {
      const lines = readText(file).split('\n');
      lines.forEach((line, index) => {
        const hit = forbidden.find((literal) => line.includes(literal)) ?? bareName.exec(line)?.[0];
        if (hit !== undefined)
          problems.push({ at: `${relative(ROOT, file)}:${index + 1}`, cited: hit, why: line.trim() });
      });
    }
    expect(problems, 'a clone has only the repository: cite docs/<file>.md#<anchor> instead').toEqual([]);
  });
});
