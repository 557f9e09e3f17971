// What `propsim replay` writes for one scenario: DIR/<name>/events.jsonl, state.json and report.html, and
// the --json document. Files are written into a temporary folder and renamed into place, so a run that
// fails leaves no half-written folder behind.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { replayReportHtml } from './replay-report.js';
import type { ScenarioRun } from '../scenario/runner.js';

export function eventsSha256(run: ScenarioRun): string {
  const hash = createHash('sha256');
  for (const piece of run.journalPieces) hash.update(piece);
  return hash.digest('hex');
}

/** Writes events.jsonl a piece at a time, each encoded once for both the file and the hash; returns the sha256. */
function writeEvents(run: ScenarioRun, file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    for (const piece of run.journalPieces) {
      const bytes = Buffer.from(piece, 'utf8');
      hash.update(bytes);
      writeSync(fd, bytes);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** A folder name from a scenario name: "EOD trailing floor" -> "eod-trailing-floor". */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'scenario' : slug;
}

export function replayDocument(run: ScenarioRun, sha256: string): Record<string, unknown> {
  return {
    scenario: run.scenario.name,
    passed: run.passed,
    expectations: run.expectations,
    events_sha256: sha256,
    final: { accounts: run.final.accounts, orders: run.final.orders },
  };
}

/**
 * Writes the three files of a run into `dir` (replacing an earlier run's folder); returns the folder and the
 * events' sha256, computed as events.jsonl is written.
 */
export function writeReplayOutputs(run: ScenarioRun, dir: string): { folder: string; sha256: string } {
  mkdirSync(dir, { recursive: true });
  const staging = join(dir, `.${slugOf(run.scenario.name)}.partial-${process.pid}`);
  const target = join(dir, slugOf(run.scenario.name));
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  try {
    const sha256 = writeEvents(run, join(staging, 'events.jsonl'));
    const state = { scenario: run.scenario.name, file: run.scenario.file, seed: run.seed, passed: run.passed, events_sha256: sha256, ...run.final };
    writeFileSync(join(staging, 'state.json'), JSON.stringify(state, null, 2) + '\n');
    writeFileSync(join(staging, 'report.html'), replayReportHtml(run, sha256));
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    return { folder: target, sha256 };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}
