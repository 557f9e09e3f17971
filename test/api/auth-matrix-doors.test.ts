// The auth matrix (docs/api.md#the-auth-matrix) on the routes every caller meets first: the public pages, login,
// refresh and logout, and the streams' upgrade routes, each × every kind of caller on a fresh world.
import { describe } from 'vitest';
import { DOOR_ROWS } from './auth-matrix-rows.js';
import { matrixApp } from './auth-matrix-world.js';

describe('docs/api.md#the-auth-matrix: every route × every kind of caller', () => {
  const matrix = matrixApp();
  for (const row of DOOR_ROWS) matrix.describeRow(row);
});
