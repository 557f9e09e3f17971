// propsim's fills CSV (docs/backtesting.md#historical-fills) as text: `ts,trader,instrument,side,quantity,price`,
// plus `commission` when the exports had one; times in UTC ISO with milliseconds.
import { isoUtc } from '../core/time.js';
import type { ImportedFill, ImportedFills } from './import-fills.js';

export function fillsCsv({ fills, hasCommission }: Pick<ImportedFills, 'fills' | 'hasCommission'>): string {
  const header = ['ts', 'trader', 'instrument', 'side', 'quantity', 'price', ...(hasCommission ? ['commission'] : [])];
  const lines = fills.map((f) => {
    const cells = [isoUtc(f.timeMs), csvCell(f.trader), f.symbol, f.side, String(f.quantity), f.price];
    if (hasCommission) cells.push(f.commission);
    return cells.join(',');
  });
  return [header.join(','), ...lines].map((line) => line + '\n').join('');
}

/** Fills that carry no export's commission (made by the engine, or kept from one), as propsim's fills CSV. */
export function plainFillsCsv(fills: ReadonlyArray<Omit<ImportedFill, 'commission' | 'file'>>): string {
  return fillsCsv({ fills: fills.map((f) => ({ ...f, commission: '', file: '' })), hasCommission: false });
}

/** A trader id is the export's text: quoted when it holds a comma or a quote. */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
