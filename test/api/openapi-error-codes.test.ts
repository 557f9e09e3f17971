// docs/api.md#errors: the document's ErrorCode enum (src/api/openapi/error-codes.ts) names every code a refusal in the
// source can carry: each `failure(…)`, `new CommandRefusal(…)`, `new ApiError(…)` and `notFound(…)` with a literal
// code, and the fault windows' and the store's codes. A code added to the source and not to the enum fails here, before an answer
// that carries it fails the document's checks.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/api/openapi/error-codes.js';
import { startTestApi } from './api-harness.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The codes the source refuses with: a status and a literal code as the first arguments, or a `code:` of an error. */
function codesInSource(): Set<string> {
  const codes = new Set<string>();
  const call = /\b(?:failure|CommandRefusal|ApiError)\s*(?:<[^>]*>)?\(\s*(\d{3})\s*,\s*'([a-z][a-z0-9_]*)'/g;
  const field = /\b(\d{3}): \{ code: '([a-z][a-z0-9_]*)'/g; // the fault windows' table
  const missing = /\b(notFound)\(\s*'([a-z][a-z0-9_]*)'/g; // api-error.ts: a 404 by its code
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of [...text.matchAll(call), ...text.matchAll(field), ...text.matchAll(missing)])
      codes.add(match[2]!);
    if (file.endsWith('durable-answers.ts')) for (const m of text.matchAll(/code: '([a-z_]+)'/g)) codes.add(m[1]!);
  }
  return codes;
}

describe('docs/api.md#errors: the ErrorCode enum', () => {
  it('names every code the source refuses with', () => {
    const found = codesInSource();
    expect(found.size, 'the scan finds the codes').toBeGreaterThan(40);
    expect([...found].filter((code) => !(ERROR_CODES as readonly string[]).includes(code)).sort()).toEqual([]);
  });

  it('is the enum of the envelope in the served document, each code once', async () => {
    const api = await startTestApi();
    try {
      const document = api.json(await api.call({ method: 'GET', url: '/openapi.json' }));
      const schemas = document.components.schemas;
      expect(schemas.ErrorEnvelope.properties.code).toEqual({ $ref: '#/components/schemas/ErrorCode' });
      expect(schemas.ErrorCode.enum).toEqual([...ERROR_CODES]);
      expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
      expect(schemas.Error, 'no schema named Error, which would shadow the global Error').toBeUndefined();
    } finally {
      await api.close();
    }
  });
});
