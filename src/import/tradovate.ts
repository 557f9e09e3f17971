// Tradovate's "Fills" export (docs/backtesting.md#importing-broker-exports): `Fill ID, Order ID, Timestamp, Date,
// Account, B/S, Quantity, Price, Contract, Product, commission`, and in newer exports the API's lower-case columns
// (`id, orderId, timestamp, action, qty, price, account`). The API's `timestamp` is UTC and preferred; the display
// `Timestamp` is in the exporting user's zone.
import type { FillExportFormat } from './fill-export-format.js';
import { readContract } from './fill-fields.js';

export const TRADOVATE: FillExportFormat = {
  name: 'tradovate',
  columnsOf: () => ({
    ts: ['timestamp', 'Timestamp'],
    trader: ['Account', 'account'],
    instrument: ['Contract', 'contract'],
    side: ['B/S', 'action'],
    quantity: ['Quantity', 'qty'],
    price: ['Price', 'price'],
    commission: ['commission', 'Commission'],
    id: ['Fill ID', 'id'],
  }),
  zoning: (tsColumn) =>
    tsColumn === 'timestamp'
      ? { zoning: 'utc', why: '' }
      : { zoning: 'export', why: "Tradovate's Timestamp column is in the exporting user's zone" },
  contract: readContract,
};
