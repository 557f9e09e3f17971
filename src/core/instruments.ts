// Contract specifications and GLOBEX symbol parsing (ESM6 -> ES, June 2026).
import { Dec } from './money.js';

export type ProductFamily = 'equity_index' | 'interest_rates' | 'fx' | 'energy' | 'metals';
export const PRODUCT_FAMILIES: readonly ProductFamily[] = ['equity_index', 'interest_rates', 'fx', 'energy', 'metals'];

/** Every product here trades CME GLOBEX hours: 17:00–16:00 CT, Sunday to Friday (docs/calendar.md). */
export type SessionTemplate = 'cme_globex';

export interface InstrumentSpec {
  root: string;
  name: string;
  family: ProductFamily;
  sessionTemplate: SessionTemplate;
  /** Minimum price increment, exact decimal string. */
  tickSize: string;
  /** Dollars per tick per contract, exact decimal string. */
  tickValue: string;
  /** Dollars per 1.0 of price per contract (tickValue / tickSize), exact decimal string. */
  pointValue: string;
  /** Decimal places a price of this contract is written with. */
  priceDecimals: number;
  /**
   * Tick value in mills (1/1000 dollar), an integer for every contract (ZN: $15.625 = 15625 mills), so P&L
   * can be computed in integers and brought to cents once (money.ts rounding rule).
   */
  tickValueMills: number;
  /** A micro's full-size contract (MES: ES), for a plan's micro_ratio (docs/risk-rules.md#position-limits). */
  miniRoot?: string;
}

type SpecInput = Pick<InstrumentSpec, 'root' | 'name' | 'family' | 'tickSize' | 'tickValue'>;

/** Each micro's full-size contract: a tenth of it in every case here (CME's contract specifications). */
const MINI_ROOTS: Readonly<Record<string, string>> = {
  MES: 'ES',
  MNQ: 'NQ',
  MYM: 'YM',
  M2K: 'RTY',
  M6E: '6E',
  MCL: 'CL',
  MGC: 'GC',
};

function spec(input: SpecInput): InstrumentSpec {
  const tickSize = new Dec(input.tickSize);
  const tickValue = new Dec(input.tickValue);
  const mills = tickValue.times(1000);
  if (!mills.isInteger()) throw new Error(`${input.root}: tick value ${input.tickValue} is finer than a mill`);
  return {
    ...input,
    sessionTemplate: 'cme_globex',
    pointValue: tickValue.dividedBy(tickSize).toFixed(),
    priceDecimals: tickSize.decimalPlaces(),
    tickValueMills: mills.toNumber(),
    ...(MINI_ROOTS[input.root] === undefined ? {} : { miniRoot: MINI_ROOTS[input.root] }),
  };
}

const CATALOG: readonly InstrumentSpec[] = [
  spec({ root: 'ES', name: 'E-mini S&P 500', family: 'equity_index', tickSize: '0.25', tickValue: '12.50' }),
  spec({ root: 'MES', name: 'Micro E-mini S&P 500', family: 'equity_index', tickSize: '0.25', tickValue: '1.25' }),
  spec({ root: 'NQ', name: 'E-mini Nasdaq-100', family: 'equity_index', tickSize: '0.25', tickValue: '5.00' }),
  spec({ root: 'MNQ', name: 'Micro E-mini Nasdaq-100', family: 'equity_index', tickSize: '0.25', tickValue: '0.50' }),
  spec({ root: 'YM', name: 'E-mini Dow ($5)', family: 'equity_index', tickSize: '1', tickValue: '5.00' }),
  spec({ root: 'MYM', name: 'Micro E-mini Dow', family: 'equity_index', tickSize: '1', tickValue: '0.50' }),
  spec({ root: 'RTY', name: 'E-mini Russell 2000', family: 'equity_index', tickSize: '0.10', tickValue: '5.00' }),
  spec({ root: 'M2K', name: 'Micro E-mini Russell 2000', family: 'equity_index', tickSize: '0.10', tickValue: '0.50' }),
  spec({ root: 'ZN', name: '10-Year T-Note', family: 'interest_rates', tickSize: '0.015625', tickValue: '15.625' }),
  spec({ root: 'ZB', name: 'U.S. Treasury Bond', family: 'interest_rates', tickSize: '0.03125', tickValue: '31.25' }),
  spec({ root: '6E', name: 'Euro FX', family: 'fx', tickSize: '0.00005', tickValue: '6.25' }),
  spec({ root: 'M6E', name: 'E-micro EUR/USD', family: 'fx', tickSize: '0.0001', tickValue: '1.25' }),
  spec({ root: '6B', name: 'British Pound', family: 'fx', tickSize: '0.0001', tickValue: '6.25' }),
  spec({ root: 'CL', name: 'Crude Oil', family: 'energy', tickSize: '0.01', tickValue: '10.00' }),
  spec({ root: 'MCL', name: 'Micro WTI Crude Oil', family: 'energy', tickSize: '0.01', tickValue: '1.00' }),
  spec({ root: 'NG', name: 'Henry Hub Natural Gas', family: 'energy', tickSize: '0.001', tickValue: '10.00' }),
  spec({ root: 'GC', name: 'Gold', family: 'metals', tickSize: '0.10', tickValue: '10.00' }),
  spec({ root: 'MGC', name: 'Micro Gold', family: 'metals', tickSize: '0.10', tickValue: '1.00' }),
  spec({ root: 'SI', name: 'Silver', family: 'metals', tickSize: '0.005', tickValue: '25.00' }),
];

const BY_ROOT: ReadonlyMap<string, InstrumentSpec> = new Map(CATALOG.map((s) => [s.root, s]));

// A micro's mini is a full-size contract of the catalog: a micro_ratio counts one level down, never two.
for (const [micro, mini] of Object.entries(MINI_ROOTS))
  if (!BY_ROOT.has(micro) || !BY_ROOT.has(mini) || BY_ROOT.get(mini)!.miniRoot !== undefined)
    throw new Error(`${micro}: a micro of the catalog whose mini ${mini} is a full-size contract of it`);

const KNOWN_ROOTS = `known roots: ${[...BY_ROOT.keys()].join(' ')}`;

export function allInstruments(): readonly InstrumentSpec[] {
  return CATALOG;
}

export class UnknownInstrumentError extends Error {
  constructor(
    readonly symbol: string,
    detail: string,
  ) {
    super(`instrument ${JSON.stringify(symbol)}: ${detail}`);
    this.name = 'UnknownInstrumentError';
  }
}

export function instrumentByRoot(root: string): InstrumentSpec {
  const found = BY_ROOT.get(root);
  if (!found) throw new UnknownInstrumentError(root, `unknown root; ${KNOWN_ROOTS}`);
  return found;
}

/** CME month codes, January to December. */
export const MONTH_CODES = 'FGHJKMNQUVXZ';

export interface ParsedSymbol {
  symbol: string;
  root: string;
  spec: InstrumentSpec;
  /** Contract month 1–12 and year, absent for a bare root. */
  contract?: { month: number; year: number };
}

/**
 * Parses a GLOBEX symbol: root + month code + year (`ESM6`, `ESM26`, `6EH4`) or a bare root (`ES`).
 * A one-digit year means 202X; write two digits (`ESZ19`) for another decade.
 */
export function parseSymbol(symbol: string): ParsedSymbol {
  const yearMatch = /[0-9]{1,2}$/.exec(symbol);
  // A bare root never ends in a digit in this catalog; a trailing digit means a contract year.
  if (!yearMatch) return { symbol, root: symbol, spec: instrumentByRoot(symbol) };
  const yearDigits = yearMatch[0];
  const head = symbol.slice(0, symbol.length - yearDigits.length);
  const monthCode = head.slice(-1);
  const root = head.slice(0, -1);
  if (root === '' || monthCode === '') {
    throw new UnknownInstrumentError(
      symbol,
      'expected ROOT + month code + year, like ESM6 or 6EH24, or a bare root like ES',
    );
  }
  const month = MONTH_CODES.indexOf(monthCode) + 1;
  if (!BY_ROOT.has(root))
    throw new UnknownInstrumentError(symbol, `unknown root ${JSON.stringify(root)}; ${KNOWN_ROOTS}`);
  if (month === 0) {
    throw new UnknownInstrumentError(
      symbol,
      `unknown month code ${JSON.stringify(monthCode)}; expected one of ${MONTH_CODES.split('').join(' ')}`,
    );
  }
  const year = yearDigits.length === 1 ? 2020 + Number(yearDigits) : 2000 + Number(yearDigits);
  return { symbol, root, spec: instrumentByRoot(root), contract: { month, year } };
}

/** One spelling per contract: a one-digit year for 2020–2029 (ESM26 -> ESM6), two digits otherwise (ESZ19). */
export function canonicalSymbol(parsed: ParsedSymbol): string {
  if (!parsed.contract) return parsed.root;
  const { month, year } = parsed.contract;
  const yearText = year >= 2020 && year <= 2029 ? String(year - 2020) : String(year % 100).padStart(2, '0');
  return `${parsed.root}${MONTH_CODES[month - 1]}${yearText}`;
}
