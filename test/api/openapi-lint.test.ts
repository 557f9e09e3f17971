// docs/api.md#the-openapi-document: the document a listening sandbox serves passes Redocly's recommended ruleset
// with no error and no warning. The linter runs from node_modules/.bin on a temporary copy of the document, with its
// telemetry and update check off, so it needs no network.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startListeningSandbox } from './listening-sandbox.js';

const REDOCLY = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint --extends=recommended` of the document; its exit status and report. */
function lint(document: unknown): { status: number | null; report: LintReport } {
  const folder = mkdtempSync(join(tmpdir(), 'propsim-redocly-'));
  writeFileSync(join(folder, 'openapi.json'), JSON.stringify(document));
  const run = spawnSync(REDOCLY, ['lint', 'openapi.json', '--extends=recommended', '--format=json'], {
    cwd: folder,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (run.error) throw run.error;
  return { status: run.status, report: JSON.parse(run.stdout) as LintReport };
}

const summary = (report: LintReport) =>
  report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

describe('docs/api.md#the-openapi-document: Redocly lint, recommended ruleset', () => {
  let document: Record<string, unknown>;
  beforeAll(async () => {
    const listening = await startListeningSandbox();
    try {
      document = (await listening.http('GET', '/openapi.json', {})).body;
    } finally {
      await listening.app.close();
      await listening.sandbox.close();
    }
  });

  it('reports nothing on the served document', () => {
    const { status, report } = lint(document);
    expect(summary(report)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(status).toBe(0);
  }, 60_000);

  it('reports a document without servers and with an operationId twice, so the check above can fail', () => {
    const broken = structuredClone(document) as {
      servers?: unknown;
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    delete broken.servers;
    broken.paths['/v1/orders']!.get!.operationId = 'placeOrder';
    const { status, report } = lint(broken);
    expect(status).toBe(1);
    expect(report.problems.map((p) => p.ruleId)).toEqual(
      expect.arrayContaining(['no-empty-servers', 'operation-operationId-unique']),
    );
  }, 60_000);
});
