// The Layout of docs/architecture.md, generated from the source tree (`npm run docs:layout`; npm test checks it is
// current): each folder of src/ with its line from FOLDERS, and each file with the first sentence of its own header
// comment, so the map cannot drift from the files. A folder added without a line here fails the check.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What each folder of src/ holds, one line each (the files say the rest in their headers). */
export const FOLDERS: Readonly<Record<string, string>> = {
  src: 'the TypeScript sources, in layers from core up (docs/architecture.md#layers)',
  'src/core': 'the pure domain: no I/O, no wall clock, no unseeded randomness',
  'src/core/accounts': 'plans, overlays, provisioning and the account machine',
  'src/core/calendar': 'the GLOBEX calendar: Chicago dates, holidays, sessions, trade dates and rolls',
  'src/core/kernel':
    'the engine every driver shares: the façade (kernel.ts), its shared state, events and time, then its write side, risk engine, read side and persistence',
  'src/core/kernel/persistence':
    "the kernel's journal, its replay, state snapshots and market prints journaled by reference",
  'src/core/kernel/read':
    "the kernel's read side: reads in the API's shapes, paging, JSON views, statistics, daily records",
  'src/core/kernel/write':
    "the kernel's write side: commands, the order desk, executions, the print path and firm control",
  'src/core/kernel/risk':
    'the risk engine: the risk desk, floors, limits, passing and the rules that act at an instant',
  'src/core/orders': 'the order machine, its status log, order requests, the fill model and the venue books',
  'src/core/positions': 'positions, FIFO lots, trades, fills, marks and daily position records',
  'src/core/snapshot': 'what each long-lived part declares a snapshot keeps of it, below the kernel that takes them',
  'src/core/shapes': 'the public shapes as TypeBox schemas',
  'src/core/validation': 'input checked against its schema: request bodies, files, field readers and what errors echo',
  'src/market': 'market data readers (CSV ticks and bars, Databento) and the holiday file',
  'src/import': 'importers of broker fills exports and Databento downloads',
  'src/store': 'the SQLite store: journal, snapshots and the writer thread',
  'src/scenario': 'scenario files: reading, validation and the runner',
  'src/backtest': 'back-tests: the config, cells, the funnel, outcomes and their statistics',
  'src/backtest/cells': 'one grid cell run: kernel, accounts, market, traders, outcomes; the worker pool',
  'src/backtest/config': 'the back-test config: schema, grid, who trades, the period, command-line overrides',
  'src/backtest/fills': 'historical trader fills: reading, checks against period and market, what was dropped',
  'src/backtest/funnel': "the firm's funnel: a trader's evaluations, funded accounts and payouts",
  'src/backtest/optimize': 'propsim optimize: the search, the confirmation and the choice',
  'src/backtest/stats': 'how far a back-test can be trusted: intervals, tests, decisions, the best cell',
  'src/backtest/queue': 'back-test cells as shards on a BullMQ queue, and the worker',
  'src/backtest/tape': 'resampled market tapes: blocks of sessions drawn with replacement',
  'src/backtest/traders': 'synthetic traders: the strategies and their params',
  'src/backtest/validation': "a back-test compared with a firm's records",
  'src/reports': 'what runs write: HTML reports, CSV and JSON outputs, charts and the words of verdicts',
  'src/calibrate': 'propsim calibrate: kinds of synthetic traders from real fills',
  'src/api': 'the sandbox REST API on Fastify',
  'src/api/auth': 'keys, logins, tokens and sessions',
  'src/api/dashboard': 'the dashboard page and what it keeps',
  'src/api/gateway': 'what every request meets first: authentication, limits, firm scoping',
  'src/api/openapi': 'the OpenAPI document, and its examples in session-examples.json',
  'src/api/routes': 'the routes, one file per resource',
  'src/api/sandbox': 'the sandbox: its clock, persistence, seed, reset and faults',
  'src/api/schemas': 'request and answer schemas of the routes',
  'src/api/streams': 'the WebSocket and SSE streams',
  'src/cli': 'the propsim command line',
  'src/client': 'the typed client (propsim/client): it imports nothing else of the project',
  'src/demo': 'npm run demo',
  'src/sim': 'npm run sim: the whole-system simulation',
};

const NAME_WIDTH = 30;
const LINE_WIDTH = 118;

/** The Layout block for the tree under `root`/src. */
export function sourceLayout(root: string): string {
  const lines: string[] = [];
  const walk = (folder: string, depth: number) => {
    const indent = '  '.repeat(depth);
    lines.push(row(`${indent}${folder.split('/').pop()}/`, folderLine(folder)));
    const entries = readdirSync(join(root, folder)).sort();
    for (const name of entries.filter((n) => n.endsWith('.ts')))
      lines.push(row(`${indent}  ${name}`, headerSentence(readFileSync(join(root, folder, name), 'utf8'))));
    for (const name of entries.filter((n) => statSync(join(root, folder, n)).isDirectory()))
      walk(`${folder}/${name}`, depth + 1);
  };
  walk('src', 0);
  return `${lines.join('\n')}\n`;
}

/** Folders of src/ (relative, with '/') that have no line in FOLDERS, and FOLDERS lines whose folder is gone. */
export function folderLinesOutOfStep(root: string): { missing: string[]; gone: string[] } {
  const found: string[] = [];
  const walk = (folder: string) => {
    found.push(folder);
    for (const name of readdirSync(join(root, folder)).sort())
      if (statSync(join(root, folder, name)).isDirectory()) walk(`${folder}/${name}`);
  };
  walk('src');
  return {
    missing: found.filter((folder) => FOLDERS[folder] === undefined),
    gone: Object.keys(FOLDERS).filter((folder) => !found.includes(folder)),
  };
}

function folderLine(folder: string): string {
  return FOLDERS[folder] ?? '(no line in scripts/docs/source-layout.ts FOLDERS)';
}

function row(name: string, text: string): string {
  const padded = name.length < NAME_WIDTH ? name.padEnd(NAME_WIDTH) : `${name} `;
  const room = LINE_WIDTH - padded.length;
  if (text.length <= room) return `${padded}${text}`.trimEnd();
  const cut = text.slice(0, room - 1);
  return `${padded}${cut.slice(0, Math.max(cut.lastIndexOf(' '), room / 2)).replace(/[\s,;:(]+$/, '')}…`;
}

/**
 * The first sentence of a file's header comment (its leading // or /** lines), without doc citations: what the file
 * is, in its own words. A file without one (an index of re-exports) says what it re-exports.
 */
export function headerSentence(text: string): string {
  const header: string[] = [];
  for (const line of text.split('\n')) {
    const comment = /^\s*(?:\/\/|\/\*\*?|\*\/?)\s?(.*)$/.exec(line);
    if (!comment) break;
    header.push(comment[1]!.replace(/\*\/\s*$/, ''));
  }
  const prose = header.join(' ').replace(/\s+/g, ' ').trim();
  if (prose === '') {
    const from = [...text.matchAll(/export \* from '\.\/([\w-]+)\.js'/g)].map((m) => m[1]);
    return from.length > 0 ? `re-exports ${from.join(', ')}` : '';
  }
  const sentence = (/^(.*?[.!?])(?:\s|$)/.exec(prose)?.[1] ?? prose)
    .replace(/\s*\((?:see )?docs\/[^)]*\)/g, '')
    .replace(/\s*\(([\w.-]+\.md#[^)]*)\)/g, '');
  // The head of the sentence, before its first colon or semicolon, says what the file is; the rest says how.
  const breaks = [...sentence.matchAll(/[:;] /g)].map((m) => m.index);
  const at = breaks.find((i) => i >= 16 && (sentence.slice(0, i).match(/`/g) ?? []).length % 2 === 0);
  return (at === undefined ? sentence : sentence.slice(0, at)).replace(/[.:]$/, '');
}
