// The `input` step (docs/scenarios.md#input-steps): one kernel input as a journal records it, `{time_ms, type,
// data}`, applied at its time exactly as a journal replay applies it (the clock moves there silently). It is what
// the sandbox's session export writes, so an exported session replays to the sandbox's journal byte for byte.
import { fail, checkKeys, required, at, type Fields } from '../core/validation/input-fields.js';
import { chicagoIso } from '../core/calendar/dates.js';
import { canonicalSymbol, parseSymbol } from '../core/instruments.js';
import { isPrintSize } from '../core/kernel/write/print-input.js';
import { KERNEL_COMMAND_TYPES } from '../core/kernel/write/commands.js';
import type { InputStep } from './scenario-types.js';
import { readSymbol } from './scenario-fields.js';
import type { StepInput } from './step-context.js';

/** What an `input` step may name: a kernel command, or a market print. */
export const INPUT_TYPES: readonly string[] = [...KERNEL_COMMAND_TYPES, 'print'];

/** The body's keys and types were checked against its schema (step-schemas.ts); here, the clock and a print's data. */
export function parseInput(body: unknown, s: StepInput): InputStep {
  const { time_ms: timeMs, type, data = {} } = body as { time_ms: number; type: string; data?: Fields };
  if (timeMs < s.ctx.nowMs)
    fail(
      at(s.path, 'time_ms'),
      `a time no earlier than the simulated clock at this step (${chicagoIso(s.ctx.nowMs)} CT): the clock never moves back`,
      timeMs,
    );
  if (type === 'print') checkPrintData(data, at(s.path, 'data'));
  s.ctx.nowMs = type === 'advance' && typeof data.to_ms === 'number' ? Math.max(timeMs, data.to_ms) : timeMs;
  return { index: s.index, kind: 'input', timeMs, type, data };
}

/**
 * A market print as the journal writes it, `{instrument, price_ticks, size}` (size null or absent: no limit). A
 * command's data reaches the kernel, which checks it as the API would; a print goes straight to the hot path, which
 * trusts its input, so it is checked here.
 */
function checkPrintData(data: Fields, path: string): void {
  checkKeys(data, path, ['instrument', 'price_ticks', 'size']);
  const instrument = readSymbol(
    required(data.instrument, at(path, 'instrument'), 'a GLOBEX symbol'),
    at(path, 'instrument'),
  );
  // The kernel's books are keyed by the canonical symbol, which is what a journal writes: ESM26 would be a book apart.
  const canonical = canonicalSymbol(parseSymbol(instrument));
  if (canonical !== instrument)
    fail(at(path, 'instrument'), `the symbol as a journal writes it (${canonical})`, instrument);
  const ticks = required(data.price_ticks, at(path, 'price_ticks'), 'an integer number of ticks');
  if (typeof ticks !== 'number' || !Number.isSafeInteger(ticks))
    fail(at(path, 'price_ticks'), 'an integer number of ticks', ticks);
  const size = data.size;
  if (size !== undefined && size !== null && !isPrintSize(size))
    fail(at(path, 'size'), 'an integer of at least 1, or null for a print without a size limit', size);
}
