// The roots a synthetic block trades (`instruments: [ES, NQ]` or `{ ES: 3, NQ: 1 }`), and the one session family a
// back-test runs in: the kernel rolls every account's session by one calendar, so roots of two families (ES and CL
// close on different holidays) are refused, naming the block (docs/backtesting.md#several-instruments-and-contract-rolls).
import { at, fail } from '../../core/validation/input-fields.js';
import { instrumentByRoot, parseSymbol, type ProductFamily } from '../../core/instruments.js';
import type { MarketFileSpec } from '../../market/market-file-spec.js';
import type { InstrumentWeight, SyntheticTraders } from '../traders/strategy.js';

/** A block's `instruments` as roots and weights; the schema has checked its shape and the list's roots. */
export function parseInstruments(
  raw: readonly string[] | Readonly<Record<string, number>> | undefined,
  path: string,
): InstrumentWeight[] | undefined {
  if (raw === undefined) return undefined;
  const field = at(path, 'instruments');
  const entries: [string, number][] = Array.isArray(raw)
    ? raw.map((root) => [root, 1])
    : Object.entries(raw as Record<string, number>);
  for (const [root] of entries) {
    try {
      instrumentByRoot(root);
    } catch (error) {
      fail(at(field, root), `a product root (the roll picks the contract): ${(error as Error).message}`, root);
    }
  }
  const instruments = entries.map(([root, weight]) => ({ root, weight }));
  const families = new Set(instruments.map((i) => instrumentByRoot(i.root).family));
  if (families.size > 1)
    fail(
      field,
      `roots of one product group, whose sessions the back-test rolls by; got ${rootsByFamily(instruments)}`,
      raw,
    );
  return instruments;
}

/**
 * The product group whose sessions the back-test runs: the first market file's instrument's, else the roots the
 * synthetic blocks name. Every block's roots must belong to it.
 */
export function checkSessionFamily(
  market: readonly MarketFileSpec[],
  synthetic: readonly SyntheticTraders[],
  blockPath: (b: number) => string,
): void {
  const first = market[0]?.instrument;
  const named = synthetic.map((block, b) => ({ block, b })).filter(({ block }) => block.instruments !== undefined);
  if (first === undefined && (named.length === 0 || named.length < synthetic.length))
    fail(
      'market.files[0].instrument',
      'the instrument of the first market file: synthetic traders without instruments trade it, and sessions roll by its calendar',
      undefined,
    );
  const family = first === undefined ? familyOfBlock(named[0]!.block) : parseSymbol(first).spec.family;
  const source = first === undefined ? blockPath(named[0]!.b) : `market.files[0].instrument (${first})`;
  for (const { block, b } of named)
    if (familyOfBlock(block) !== family)
      fail(
        at(blockPath(b), 'instruments'),
        `roots of the ${family} product group, as ${source}: a back-test rolls sessions by one calendar; got ${rootsByFamily(block.instruments!)}`,
        block.instruments!.map((i) => i.root),
      );
}

/** The product group of the back-test's sessions (checkSessionFamily has made sure there is one). */
export function sessionFamily(config: {
  market: readonly MarketFileSpec[];
  synthetic: readonly SyntheticTraders[];
}): ProductFamily {
  const first = config.market[0]?.instrument;
  if (first !== undefined) return parseSymbol(first).spec.family;
  return familyOfBlock(config.synthetic.find((block) => block.instruments !== undefined)!);
}

function familyOfBlock(block: SyntheticTraders): ProductFamily {
  return instrumentByRoot(block.instruments![0]!.root).family;
}

/** "ES, NQ (equity_index); CL (energy)" */
function rootsByFamily(instruments: readonly InstrumentWeight[]): string {
  const groups = new Map<ProductFamily, string[]>();
  for (const { root } of instruments) {
    const family = instrumentByRoot(root).family;
    groups.set(family, [...(groups.get(family) ?? []), root]);
  }
  return [...groups].map(([family, roots]) => `${roots.join(', ')} (${family})`).join('; ');
}
