// Any CSV of fills (docs/backtesting.md#importing-broker-exports): each field's column is its own name (so
// propsim's own fills CSV imports as it is) unless `--map FIELD=COLUMN` names another; times need --tz only when
// they carry no offset.
import type { FillExportFormat } from './fill-export-format.js';
import { readContract } from './fill-fields.js';

export const GENERIC: FillExportFormat = {
  name: 'generic',
  columnsOf: () => ({
    ts: ['ts'],
    trader: ['trader'],
    instrument: ['instrument'],
    side: ['side'],
    quantity: ['quantity'],
    price: ['price'],
    commission: ['commission'],
    id: ['id'],
  }),
  zoning: () => ({ zoning: 'row', why: 'no offset or Z in the time' }),
  contract: readContract,
};
