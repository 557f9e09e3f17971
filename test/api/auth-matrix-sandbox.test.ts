// The auth matrix (docs/api.md#the-auth-matrix) on the sandbox's own routes, the platform admin's alone, and on the
// routes of the service the sandbox does not simulate, each × every kind of caller on a fresh world.
import { describe } from 'vitest';
import { SANDBOX_ROWS } from './auth-matrix-rows.js';
import { matrixApp } from './auth-matrix-world.js';

describe('docs/api.md#the-auth-matrix: every route × every kind of caller', () => {
  const matrix = matrixApp();
  for (const row of SANDBOX_ROWS) matrix.describeRow(row);
});
