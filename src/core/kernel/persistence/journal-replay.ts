// Rebuilds a kernel from its journal: the `input.*` lines, applied in order to a fresh kernel made from the
// `input.kernel_started` line, give back the same state and the same journal, byte for byte (the sandbox's
// restart, and the crash-and-replay test). A journaled command is the command as dispatched, so replaying one is
// dispatching it again at its time; `input.print` lines are the market input, or, for a journal that references
// its market files, `input.market_prints` ranges of the files' merged stream, which the caller reads and supplies.
import type { GlobexCalendar } from '../../calendar/globex-calendar.js';
import type { ProductFamily } from '../../instruments.js';
import type { FillModel } from '../../orders/fill-model.js';
import type { KernelCommand } from '../write/commands.js';
import type { JournalEntry } from './journal.js';
import { Kernel, type KernelOptions } from '../kernel.js';
import { MarketPrintsError, type MarketFileReference, type MarketPrintCursor } from './market-prints.js';

type Data = Record<string, unknown>;

export function parseJournal(text: string): JournalEntry[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JournalEntry);
}

export interface ReplayOptions {
  journal?: KernelOptions['journal'];
  /** The prints of the market files the journal references (`input.market_files`), when it does. */
  market?: MarketPrintCursor;
}

/** A kernel that has re-applied every input of `entries` (which must start with input.kernel_started). */
export function replayJournal(
  entries: readonly JournalEntry[],
  calendar: GlobexCalendar,
  options: ReplayOptions = {},
): Kernel {
  const [first, ...rest] = entries;
  const kernel = startedKernel(first, calendar, options.journal ?? true);
  for (const entry of rest) if (entry.type.startsWith('input.')) applyInput(kernel, entry, options.market);
  return kernel;
}

/** A fresh kernel made as the journal's `input.kernel_started` line says. */
export function startedKernel(
  first: JournalEntry | undefined,
  calendar: GlobexCalendar,
  journal: NonNullable<KernelOptions['journal']>,
): Kernel {
  if (first?.type !== 'input.kernel_started') throw new Error('a journal starts with an input.kernel_started line');
  const started = first.data as Data;
  return new Kernel({
    startMs: started.start_ms as number,
    seed: started.seed as number,
    calendar,
    fillModel: started.fill_model as FillModel,
    riskLoadDelayMs: started.risk_load_delay_ms as number,
    rollFamily: started.roll_family as ProductFamily,
    journal,
  });
}

/** Applies one journaled input at its time; `market` supplies the prints of referenced market files. */
export function applyInput(kernel: Kernel, entry: JournalEntry, market?: MarketPrintCursor): void {
  const type = entry.type.slice('input.'.length);
  const d = entry.data as Data;
  switch (type) {
    case 'print':
      kernel.print(
        d.instrument as string,
        d.price_ticks as number,
        (d.size as number | null) ?? Infinity,
        entry.time_ms,
      );
      return;
    case 'market_files':
      kernel.referenceMarketFiles(d.files as MarketFileReference[]);
      return;
    case 'market_prints':
      if (!market) throw new MarketPrintsError('the journal references market files: replaying it needs their prints');
      for (const p of market.range(d.from as number, d.to as number))
        kernel.print(p.symbol, p.priceTicks, p.size, p.timeMs);
      return;
  }
  kernel.advanceTo(entry.time_ms);
  kernel.dispatch({ type, ...d } as KernelCommand);
}
