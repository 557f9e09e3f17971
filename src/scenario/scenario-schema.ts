// The scenario file (docs/scenarios.md) as a TypeBox schema: the one declaration of its keys, types and ranges,
// published as schemas/scenario.json for editors (scripts/file-schemas.ts). The readers (parse-scenario.ts and the
// step readers) check a file against it first, then check what a schema cannot say: plans and aliases that exist,
// refs placed by earlier steps, a clock that never moves back, symbols the catalog knows.
import { Type } from 'typebox';
import { Flag, Int, Mapping, OneOf, Text } from '../core/file-fields.js';

export const LIMIT_FILLS = ['touch', 'through'] as const;

/** `market:` of a scenario, a back-test config and `serve --market` lists. */
export const MarketSection = Mapping(
  {
    files: Type.Array(
      Mapping(
        {
          path: Text({
            expected: 'a file path',
            description: "A CSV of ticks or bars (.csv or .csv.gz), relative to this file's folder.",
          }),
          format: OneOf(['ticks', 'bars'] as const, 'ticks: ts,instrument,price[,size]; bars: OHLC bars.'),
          instrument: Type.Optional(
            Text({ expected: 'a GLOBEX symbol like ESM6', description: 'The symbol of every row, like ESM6 or 6EH4.' }),
          ),
          bar_ms: Type.Optional(Int({ minimum: 1 }, 'The length of one bar in milliseconds (bars files only).')),
          sort: Type.Optional(Flag('Sort the rows by time first (for files written out of order).')),
        },
        { expected: 'a mapping with path and format' },
      ),
      { expected: 'a list of market files' },
    ),
  },
  { expected: 'a mapping with files', description: 'The market data files, merged by time.' },
);

/** `fill_model:`; cancel_latency_ms and modify_latency_ms default to latency_ms. */
export const FillModelSection = Mapping(
  {
    latency_ms: Type.Optional(Int({ minimum: 0 }, 'Milliseconds from an order to its arrival at the venue.')),
    cancel_latency_ms: Type.Optional(Int({ minimum: 0 }, 'Milliseconds a cancel travels; default latency_ms.')),
    modify_latency_ms: Type.Optional(Int({ minimum: 0 }, 'Milliseconds a modify travels; default latency_ms.')),
    slippage_ticks: Type.Optional(Int({ minimum: 0 }, 'Ticks a market or stop order fills worse than the print.')),
    limit_fill: Type.Optional(
      OneOf(LIMIT_FILLS, 'touch: a limit fills when a print touches its price; through: only when one passes it.'),
    ),
  },
  {
    expected: 'a mapping with some of latency_ms, cancel_latency_ms, modify_latency_ms, slippage_ticks, limit_fill',
    description: 'How orders fill (docs/order-lifecycle.md).',
  },
);
