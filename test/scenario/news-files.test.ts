// A plan's news file (docs/risk-rules.md#news-blackouts): risk_profile.news.file is relative to the folder of the file
// that names it (a scenario and its account overlays, a plan file in plans/, a sandbox seed), read when that file is
// loaded into news.events; a missing file names the field and its line, a bad row the CSV's line, column and field.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSeedFile } from '../../src/api/sandbox/seed-file.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { makeScenarioFolder, scenarioErrorOf } from './scenario-files.js';

const folder = makeScenarioFolder();
afterAll(() => rmSync(folder.root, { recursive: true, force: true }));

const CSV = 'time,roots,name\n2026-03-11T07:30:00-05:00,ES|NQ,CPI\n';
const RISK = 'max_drawdown_mode: static, max_drawdown_value: "2000"';

function scenario(name: string, plan: string, account = '{ alias: a, plan: p }'): string {
  return folder.write(
    `scenarios/${name}.yaml`,
    `name: ${name}\nstart: 2026-03-11T07:00:00-05:00\nplans:\n  p:\n    starting_balance: "50000"\n    risk_profile: { ${RISK}${plan} }\n    passing_criteria: { profit_target: "3000" }\naccounts:\n  - ${account}\nsteps: []\n`,
  );
}

const CPI = { timeMs: Date.parse('2026-03-11T12:30:00Z'), roots: ['ES', 'NQ'], name: 'CPI' };

describe('docs/risk-rules.md#news-blackouts: news files beside the file that names them', () => {
  it("a scenario's plan and an account's overlay read theirs beside the scenario", () => {
    folder.write('scenarios/news/cpi.csv', CSV);
    folder.write('scenarios/other.csv', 'time\n2026-03-12T07:30:00-05:00\n');
    const loaded = loadScenarioFile(
      scenario(
        'beside',
        ', news: { file: news/cpi.csv }',
        '{ alias: a, plan: p, risk_profile: { news: { file: other.csv } } }',
      ),
    );
    expect(loaded.plans.get('p')!.riskProfile.news).toMatchObject({
      events: [CPI],
      beforeMinutes: 2,
      action: 'no_entry',
    });
    expect(loaded.accounts[0]!.plan.riskProfile.news!.events).toEqual([
      { timeMs: Date.parse('2026-03-12T12:30:00Z'), roots: [] },
    ]);
  });

  it('a plan file in plans/ reads its own beside it', () => {
    folder.write(
      'scenarios/plans/with-news.yaml',
      `starting_balance: "50000"\nrisk_profile: { ${RISK}, news: { file: cpi.csv, action: flatten } }\npassing_criteria: { profit_target: "3000" }\n`,
    );
    folder.write('scenarios/plans/cpi.csv', CSV);
    const path = folder.write(
      'scenarios/by-name.yaml',
      'name: n\nstart: 2026-03-11T07:00:00-05:00\naccounts: [{ alias: a, plan: with-news }]\nsteps: []\n',
    );
    expect(loadScenarioFile(path).accounts[0]!.plan.riskProfile.news).toMatchObject({
      events: [CPI],
      action: 'flatten',
    });
  });

  it('a sandbox seed reads its plans’ beside the seed', () => {
    folder.write('seed/news.csv', CSV);
    const seed = loadSeedFile(
      folder.write(
        'seed/seed.yaml',
        `platform_admin_keys: [svc_live_admin_news]\nfirms:\n  - slug: n\n    name: N\n    api_keys: [{ key: svc_live_news_operator, scopes: [accounts:read], role: operator }]\n    plans:\n      p:\n        starting_balance: "50000"\n        risk_profile: { ${RISK}, news: { file: news.csv } }\n        passing_criteria: { profit_target: "3000" }\n`,
      ),
    );
    expect(seed.firms[0]!.plans.get('p')!.riskProfile.news!.events).toEqual([CPI]);
  });

  it('a missing file names the field, at its line', () => {
    const error = scenarioErrorOf(() => loadScenarioFile(scenario('missing', ', news: { file: nowhere.csv }')));
    expect(error.message).toMatch(
      /missing\.yaml:6:\d+: plans\.p\.risk_profile\.news\.file: expected a readable CSV of news events \(relative paths are from the folder of the file that names it; looked for .*nowhere\.csv: ENOENT\), got "nowhere\.csv"$/,
    );
  });

  it('a bad row names the CSV, its line, column and field', () => {
    folder.write('scenarios/bad.csv', 'time,roots\n2026-03-11T07:30:00-05:00,ES\n2026-03-11T09:30:00-05:00,CL|XX\n');
    const error = scenarioErrorOf(() => loadScenarioFile(scenario('bad-row', ', news: { file: bad.csv }')));
    expect(error).toMatchObject({ line: 3, column: 27 });
    expect(error.message).toMatch(
      /bad\.csv:3:27: roots: expected catalog roots separated by \| \(like ES\|NQ; empty: every root\), got unknown root "XX"$/,
    );
  });
});
