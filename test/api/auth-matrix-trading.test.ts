// The auth matrix (docs/api.md#the-auth-matrix) on the trading routes: orders, fills, trades, positions and stats,
// read and written by a trader on their own accounts or by a firm key, each × every kind of caller on a fresh world.
import { describe } from 'vitest';
import { TRADING_ROWS } from './auth-matrix-rows.js';
import { matrixApp } from './auth-matrix-world.js';

describe('docs/api.md#the-auth-matrix: every route × every kind of caller', () => {
  const matrix = matrixApp();
  for (const row of TRADING_ROWS) matrix.describeRow(row);
});
