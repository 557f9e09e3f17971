// The real sessions a resampled tape is drawn from (docs/backtesting.md#long-horizons-a-resampled-tape): every print of
// the market files, in memory as columns, grouped by the GLOBEX session it falls in. Per session and product root,
// the contract with the most prints stands for the root (a file of one contract, or the front month around a roll).
// Only whole sessions are drawn: of full length by the calendar (no holiday moved their open or close) and covered
// by the data from their first hour to their last, so a file that starts or ends inside a session gives no half one.
import type { GlobexCalendar, Session } from '../../core/calendar/index.js';
import type { ProductFamily } from '../../core/instruments.js';
import type { MarketFileSpec } from '../../market/market-file-spec.js';
import { marketPrintBatches } from '../../market/sources.js';
import { SymbolTable } from '../../market/symbol-table.js';
import type { TickBatch } from '../../market/tick-batch.js';

/** How close to its open and close a session's prints must reach for it to count as whole. */
export const WHOLE_SESSION_EDGE_MS = 60 * 60_000;

export interface SourceSession extends Session {
  /** Its prints are rows [from, to) of the columns. */
  from: number;
  to: number;
  /** By instrument index: the root slot it stands for in this session, or −1 (another contract of its root). */
  slotOf: Int16Array;
}

/** The market files' prints in sessions, with the roots they trade. */
export interface SourceTape {
  symbols: SymbolTable;
  /** Product roots in the order first printed; a root's slot is its index here. */
  roots: string[];
  timeMs: Float64Array;
  priceTicks: Float64Array;
  size: Float64Array;
  instrumentIndex: Uint16Array;
  line: Uint32Array;
  fileIndex: Uint16Array;
  /** Every session that has prints, in order. */
  sessions: SourceSession[];
  /** The sessions a block may be drawn from, in order. */
  whole: SourceSession[];
}

/** Reads every print of the files once, keeping those inside a session of `family`. */
export async function readSourceTape(
  files: readonly MarketFileSpec[],
  calendar: GlobexCalendar,
  family: ProductFamily,
): Promise<SourceTape> {
  const symbols = new SymbolTable();
  const columns = new Columns();
  const tradeDates: string[] = [];
  const sessions: Array<Session & { from: number; to: number }> = [];
  for await (const batch of marketPrintBatches(files, symbols)) {
    for (let i = 0; i < batch.length; i++) {
      const timeMs = batch.timeMs[i]!;
      const facts = calendar.sessionAtFamily(timeMs, family);
      // A print in a halt or a maintenance break belongs to no session: no trader could trade on it.
      if (!facts.isOpen) continue;
      const row = columns.push(batch, i);
      const last = sessions[sessions.length - 1];
      if (last?.tradeDate === facts.tradeDate) last.to = row + 1;
      else {
        sessions.push({ ...sessionOf(facts), from: row, to: row + 1 });
        tradeDates.push(facts.tradeDate);
      }
    }
  }
  const roots: string[] = [];
  const rootSlot = (index: number) => {
    const root = symbols.entry(index).parsed.root;
    const slot = roots.indexOf(root);
    return slot >= 0 ? slot : roots.push(root) - 1;
  };
  const tape = columns.finish();
  const withContracts = sessions.map((s) => ({
    ...s,
    slotOf: contractsOf(s, tape.instrumentIndex, symbols, rootSlot),
  }));
  return {
    symbols,
    roots,
    ...tape,
    sessions: withContracts,
    whole: withContracts.filter((s) => isWhole(s, tape)),
  };
}

function sessionOf(facts: Session): Session {
  return {
    tradeDate: facts.tradeDate,
    openMs: facts.openMs,
    closeMs: facts.closeMs,
    ...(facts.note === undefined ? {} : { note: facts.note }),
  };
}

/** Per root, the contract with the most prints in the session (the earlier seen on a tie) stands for it. */
function contractsOf(
  session: { from: number; to: number },
  instrumentIndex: Uint16Array,
  symbols: SymbolTable,
  rootSlot: (index: number) => number,
): Int16Array {
  const counts = new Uint32Array(symbols.size);
  for (let row = session.from; row < session.to; row++) counts[instrumentIndex[row]!]!++;
  const slotOf = new Int16Array(symbols.size).fill(-1);
  const best = new Map<number, number>();
  for (let index = 0; index < symbols.size; index++) {
    if (counts[index] === 0) continue;
    const slot = rootSlot(index);
    const chosen = best.get(slot);
    if (chosen === undefined || counts[index]! > counts[chosen]!) best.set(slot, index);
  }
  for (const [slot, index] of best) slotOf[index] = slot;
  return slotOf;
}

/** Full length by the calendar, and its roots' contracts printing within its first and its last hour. */
function isWhole(session: SourceSession, tape: { timeMs: Float64Array; instrumentIndex: Uint16Array }): boolean {
  if (session.note !== undefined) return false;
  const kept = (row: number) => session.slotOf[tape.instrumentIndex[row]!]! >= 0;
  let first = session.from;
  while (first < session.to && !kept(first)) first++;
  let last = session.to - 1;
  while (last > first && !kept(last)) last--;
  return (
    first < session.to &&
    tape.timeMs[first]! < session.openMs + WHOLE_SESSION_EDGE_MS &&
    tape.timeMs[last]! >= session.closeMs - WHOLE_SESSION_EDGE_MS
  );
}

/** Growable print columns. */
class Columns {
  private length = 0;
  private timeMs = new Float64Array(1 << 16);
  private priceTicks = new Float64Array(1 << 16);
  private size = new Float64Array(1 << 16);
  private instrumentIndex = new Uint16Array(1 << 16);
  private line = new Uint32Array(1 << 16);
  private fileIndex = new Uint16Array(1 << 16);

  /** Appends row i of a batch; returns its row. */
  push(batch: TickBatch, i: number): number {
    if (this.length === this.timeMs.length) this.grow();
    const row = this.length++;
    this.timeMs[row] = batch.timeMs[i]!;
    this.priceTicks[row] = batch.priceTicks[i]!;
    this.size[row] = batch.size[i]!;
    this.instrumentIndex[row] = batch.instrumentIndex[i]!;
    this.line[row] = batch.line[i]!;
    this.fileIndex[row] = batch.fileIndex[i]!;
    return row;
  }

  finish() {
    const n = this.length;
    return {
      timeMs: this.timeMs.slice(0, n),
      priceTicks: this.priceTicks.slice(0, n),
      size: this.size.slice(0, n),
      instrumentIndex: this.instrumentIndex.slice(0, n),
      line: this.line.slice(0, n),
      fileIndex: this.fileIndex.slice(0, n),
    };
  }

  private grow(): void {
    const grown = <T extends Float64Array | Uint16Array | Uint32Array>(old: T): T => {
      const next = new (old.constructor as new (n: number) => T)(old.length * 2);
      next.set(old);
      return next;
    };
    this.timeMs = grown(this.timeMs);
    this.priceTicks = grown(this.priceTicks);
    this.size = grown(this.size);
    this.instrumentIndex = grown(this.instrumentIndex);
    this.line = grown(this.line);
    this.fileIndex = grown(this.fileIndex);
  }
}
