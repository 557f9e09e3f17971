// The session export (docs/api.md#session-export): everything the sandbox has been through since its start or last
// reset, as a scenario file that `propsim replay` runs to the same final state and the same journal. Each input the
// kernel journaled (the seed's firms and accounts, every accepted command, clock moves, market prints) becomes an
// `input` step at its time; the scenario's start, seed, fill model and loading window are the kernel's. The file
// names the events_sha256 the replay must write (expect_events_sha256), computed by replaying the inputs here, so a
// replay that comes out otherwise fails.
import { createHash } from 'node:crypto';
import { chicagoIso } from '../../core/calendar/dates.js';
import type { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import type { JournalEntry } from '../../core/kernel/persistence/journal.js';
import { parseJournal, replayJournal } from '../../core/kernel/persistence/journal-replay.js';
import type { FillModel } from '../../core/orders/fill-model.js';

/** The scenario file of a sandbox kernel's journal (its input lines), and the events_sha256 it replays to. */
export function sessionScenario(journalText: string, calendar: GlobexCalendar): { yaml: string; eventsSha256: string } {
  const inputs = parseJournal(journalText).filter((entry) => entry.type.startsWith('input.'));
  const [started, ...rest] = inputs;
  if (started?.type !== 'input.kernel_started') throw new Error('the sandbox journal has no input.kernel_started line');
  const kernel = started.data as {
    start_ms: number;
    seed: number;
    fill_model: FillModel;
    risk_load_delay_ms: number;
    roll_family: string;
  };
  if (kernel.roll_family !== 'equity_index')
    throw new Error(
      `a session rolling with ${kernel.roll_family} cannot be written as a scenario without market files`,
    );
  // Hashed as the replay writes it, as `propsim replay` does: a long session's journal is never held whole.
  const hash = createHash('sha256');
  replayJournal(inputs, calendar, { journal: { write: (chunk) => void hash.update(chunk) } }).journal.flush();
  const eventsSha256 = hash.digest('hex');
  const fill = kernel.fill_model;
  const lines = [
    `# Exported by propsim serve: every input of the sandbox session, in order, at its time (docs/scenarios.md#input-steps).`,
    `# propsim replay runs it to the session's final state, and checks that it writes the session's events_sha256.`,
    'name: sandbox session',
    `start: ${chicagoIso(kernel.start_ms)}`,
    `seed: ${kernel.seed}`,
    `fill_model: ${JSON.stringify({
      latency_ms: fill.latencyMs,
      cancel_latency_ms: fill.cancelLatencyMs,
      modify_latency_ms: fill.modifyLatencyMs,
      slippage_ticks: fill.slippageTicks,
      limit_fill: fill.limitFill,
    })}`,
    `risk_load_delay_ms: ${kernel.risk_load_delay_ms}`,
    `expect_events_sha256: ${eventsSha256}`,
    rest.length === 0 ? 'steps: []' : 'steps:',
    ...rest.map((entry) => `  - input: ${JSON.stringify(inputStep(entry))}`),
  ];
  return { yaml: lines.join('\n') + '\n', eventsSha256 };
}

function inputStep(entry: JournalEntry): Record<string, unknown> {
  return {
    time_ms: entry.time_ms,
    type: entry.type.slice('input.'.length),
    ...(entry.data === undefined ? {} : { data: entry.data }),
  };
}
