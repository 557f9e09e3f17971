// Positions, FIFO lots, trades and fill records (docs/order-lifecycle.md#positions-trades-and-lots). See
// position-book.ts for the entry point.
export { assertValidExecution, InvalidExecutionError, sideSign, type Execution, type Side } from './execution.js';
export { fillToJson, type FillRecord } from './fills.js';
export {
  AVERAGE_PRICE_EXTRA_PLACES,
  formatAveragePrice,
  formatTicks,
  millsToCents,
  pricingOf,
  type InstrumentPricing,
} from './instrument-pricing.js';
export { lotPnlMills, lotRealizedCents, lotToJson, type LotRecord, type OpenLot, type PositionSide } from './lots.js';
export { PositionBook, type FillResult, type PositionBookOptions } from './position-book.js';
export { positionToJson, type PositionView } from './positions.js';
export { tradeLotsToJson, tradeToJson, type TradeRecord } from './trades.js';
