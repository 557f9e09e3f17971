// What `propsim replay` writes for one scenario: DIR/<name>/events.jsonl, state.json and report.html, and
// the --json document. Files are written into a temporary folder and renamed into place, so a run that
// fails leaves no half-written folder behind. events.jsonl is written as the run goes (the kernel's journal goes
// out to it), the other two once the run has ended.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EventsFile } from './events-file.js';
import { replayReportHtml } from './replay-report.js';
import type { ChartPainter } from './svg-chart.js';
import { eventsShaCheck } from '../scenario/expectations.js';
import { runScenario, type RunOptions, type ScenarioRun } from '../scenario/runner.js';
import type { Scenario } from '../scenario/scenario-types.js';

/** The sha256 of a journal kept in memory (a run given no out): the events_sha256 its events.jsonl would have. */
export function eventsSha256(run: ScenarioRun): string {
  const hash = createHash('sha256');
  for (const piece of run.journalPieces) hash.update(piece);
  return hash.digest('hex');
}

/** Whether a process of this id runs (signal 0 tests without sending; EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
 * The folders of a replay's runs while they are written: each run's events.jsonl fills as the run goes, in a hidden
 * staging folder under `dir`; write() adds state.json and report.html, moveIntoPlace() renames every folder into place
 * (replacing an earlier run's), abandon() removes those not moved, and `dir` too if it was made here and is left empty.
 */
export class ReplayOutputs {
  private readonly staged: Array<{ staging: string; target: string; events: EventsFile }> = [];
  private readonly madeDir: boolean;

  constructor(private readonly dir: string) {
    this.madeDir = !existsSync(dir);
    mkdirSync(dir, { recursive: true });
  }

  /**
   * Runs a scenario, its journal going out to its staged events.jsonl (eventsOf). A run that fails (bad input found
   * mid-run) abandons everything staged, so nothing is left half-written.
   */
  async run(scenario: Scenario, options: Omit<RunOptions, 'journalTo'>): Promise<ScenarioRun> {
    try {
      return await runScenario(scenario, { ...options, journalTo: this.eventsOf(scenario.name) });
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  /**
   * The events.jsonl of the next run, named after its scenario: the run's journal goes out to it. Staging folders of
   * the scenario that a process no longer running left behind (killed with SIGKILL mid-run) are removed first.
   */
  private eventsOf(scenarioName: string): EventsFile {
    const slug = slugOf(scenarioName);
    for (const name of readdirSync(this.dir)) {
      const pid = new RegExp(`^\\.${slug}\\.partial-(\\d+)$`).exec(name)?.[1];
      if (pid !== undefined && !isRunning(Number(pid))) rmSync(join(this.dir, name), { recursive: true, force: true });
    }
    const staging = join(this.dir, `.${slug}.partial-${process.pid}`);
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging);
    const events = new EventsFile(join(staging, 'events.jsonl'));
    this.staged.push({ staging, target: join(this.dir, slug), events });
    return events;
  }

  /**
   * Writes each run's other files into its staging folder; runs are given in the order of eventsOf. A run whose
   * scenario names the events_sha256 it must write gets that check added to its expectations. Charts are drawn by
   * `painter` (worker threads, while state.json is written), else in this thread. Nothing is in place until
   * moveIntoPlace(): a Ctrl-C while reports are drawn still leaves nothing written.
   */
  async write(
    runs: readonly ScenarioRun[],
    painter?: ChartPainter,
  ): Promise<Array<{ folder: string; sha256: string }>> {
    try {
      const written = [];
      for (const [i, run] of runs.entries()) {
        const { staging, target, events } = this.staged[i]!;
        const sha256 = events.close();
        const check = eventsShaCheck(run.scenario, sha256);
        if (check) {
          run.expectations.push(check);
          run.passed &&= check.passed;
        }
        const report = replayReportHtml(run, sha256, painter);
        const state = {
          scenario: run.scenario.name,
          file: run.scenario.file,
          seed: run.seed,
          passed: run.passed,
          events_sha256: sha256,
          ...run.final,
        };
        writeFileSync(join(staging, 'state.json'), JSON.stringify(state, null, 2) + '\n');
        writeFileSync(join(staging, 'report.html'), await report);
        written.push({ folder: target, sha256 });
      }
      return written;
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  /**
   * Renames every written folder into place, replacing an earlier run's. It never yields to the event loop, so a
   * signal's handler runs before it or after it, never between two folders.
   */
  moveIntoPlace(): void {
    try {
      for (let next = this.staged[0]; next; next = this.staged[0]) {
        replaceFolder(next.staging, next.target);
        this.staged.shift();
      }
    } catch (error) {
      this.abandon(); // the folders not moved yet (a rename refused: permissions, another process)
      throw error;
    }
  }

  /** Removes what was staged and not moved into place (and `dir`, if made here and empty). */
  abandon(): void {
    for (const { staging, events } of this.staged) {
      events.discard();
      rmSync(staging, { recursive: true, force: true });
    }
    if (this.madeDir && existsSync(this.dir) && readdirSync(this.dir).length === 0) rmdirSync(this.dir);
  }
}

/** Moves `folder` to `target`; an earlier `target` is set aside first and put back if the move fails. */
function replaceFolder(folder: string, target: string): void {
  const aside = join(dirname(target), `.${basename(target)}.replaced-${process.pid}`);
  const hadTarget = existsSync(target);
  if (hadTarget) renameSync(target, aside);
  try {
    renameSync(folder, target);
  } catch (error) {
    if (hadTarget) renameSync(aside, target);
    throw error;
  }
  if (hadTarget) rmSync(aside, { recursive: true, force: true });
}
