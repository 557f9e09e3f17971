// The auth matrix (docs/api.md#the-auth-matrix) on balances and the firm's controls: provisioning, accounts,
// offerings, staff roles, locks and the admin queries, each × every kind of caller on a fresh world.
import { describe } from 'vitest';
import { FIRM_ROWS } from './auth-matrix-rows.js';
import { matrixApp } from './auth-matrix-world.js';

describe('docs/api.md#the-auth-matrix: every route × every kind of caller', () => {
  const matrix = matrixApp();
  for (const row of FIRM_ROWS) matrix.describeRow(row);
});
