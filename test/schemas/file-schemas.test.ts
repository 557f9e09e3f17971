// The JSON Schema files of the file formats (docs/scenarios.md#editor-support): they are what the TypeBox schemas
// make now, and every bundled file and documented example of each format is valid against them, as an editor
// (through Ajv, a validator of its own) would judge it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/market/holiday-file.js';
import { decodeScenarioText } from '../../src/scenario/yaml-source.js';
import { fileSchemaTexts } from '../../scripts/schemas/file-schema-texts.js';

const root = packageRoot();
type Kind = 'scenario' | 'sandbox-seed' | 'backtest-config' | 'optimize-config';

function validator(kind: Kind): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv);
  ajv.addKeyword('patternErrorMessage');
  return ajv.compile(JSON.parse(readFileSync(join(root, 'schemas', `${kind}.json`), 'utf8')) as object);
}

function yamlFiles(folder: string): string[] {
  return readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => join(folder, name));
}

/** The YAML blocks of the docs that are whole files of a kind, told apart by their top-level keys. */
function docExamples(): { where: string; kind: Kind; value: unknown }[] {
  const found: { where: string; kind: Kind; value: unknown }[] = [];
  for (const page of readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'))) {
    const text = readFileSync(join(root, 'docs', page), 'utf8');
    for (const match of text.matchAll(/^```yaml\n([\s\S]*?)^```/gm)) {
      let value: unknown;
      try {
        value = decodeScenarioText(match[1]!, page);
      } catch {
        continue; // a fragment with an ellipsis, not a file
      }
      const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
      const kind: Kind | undefined = keys.includes('steps')
        ? 'scenario'
        : keys.includes('search')
          ? 'optimize-config'
          : keys.includes('base_plan')
          ? 'backtest-config'
          : keys.includes('firms')
            ? 'sandbox-seed'
            : undefined;
      const line = text.slice(0, match.index).split('\n').length;
      if (kind) found.push({ where: `docs/${page}:${line}`, kind, value });
    }
  }
  return found;
}

const FILES: { kind: Kind; files: string[] }[] = [
  { kind: 'scenario', files: yamlFiles('scenarios') },
  { kind: 'sandbox-seed', files: ['fixtures/sandbox-seed.yaml'] },
  {
    kind: 'backtest-config',
    files: [
      ...yamlFiles('fixtures/backtest'),
      ...yamlFiles('test/backtest/fixtures'),
      ...yamlFiles('test/backtest/fixtures/funnel'),
    ],
  },
  {
    kind: 'optimize-config',
    files: [...yamlFiles('fixtures/optimize'), ...yamlFiles('test/backtest/optimize/fixtures')],
  },
];

describe('the JSON Schemas of the file formats', () => {
  it('are what the TypeBox schemas make now (else run npm run schemas)', () => {
    for (const { path, text } of fileSchemaTexts()) {
      const committed = readFileSync(join(root, path), { encoding: 'utf8', flag: 'a+' });
      expect(committed === text, `${path} is stale: run npm run schemas`).toBe(true);
    }
  });

  it.each(FILES)('accept every bundled $kind file', ({ kind, files }) => {
    const validate = validator(kind);
    expect(files.length, 'the bundled files were found').toBeGreaterThan(0);
    for (const file of files) {
      const ok = validate(decodeScenarioText(readFileSync(join(root, file), 'utf8'), file));
      expect(ok, `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('accept every whole-file example of the docs', () => {
    const examples = docExamples();
    expect(examples.length, 'doc examples were found').toBeGreaterThan(0);
    for (const { where, kind, value } of examples) {
      const validate = validator(kind);
      expect(validate(value), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('refuse what propsim refuses: an unknown key, a price written as a number, an unknown enum value', () => {
    const validate = validator('backtest-config');
    const config = decodeScenarioText(readFileSync(join(root, 'test/backtest/fixtures/hand-checked.yaml'), 'utf8'), 'x');
    const bad = (change: (doc: Record<string, unknown>) => void) => {
      const doc = structuredClone(config) as Record<string, unknown>;
      change(doc);
      return validate(doc);
    };
    expect(bad((d) => (d.seeed = 1))).toBe(false);
    expect(bad((d) => (d.economics = { price_paid: 100 }))).toBe(false);
    expect(bad((d) => (d.fill_model = { limit_fill: 'cross' }))).toBe(false);
    expect(bad((d) => (d.compare_to = -1))).toBe(false);
  });

  it("check a synthetic block's params against its strategy's: keys, types and ranges", () => {
    const validate = validator('backtest-config');
    const config = decodeScenarioText(readFileSync(join(root, 'test/backtest/fixtures/synthetic-6e.yaml'), 'utf8'), 'x');
    const withBlock = (block: Record<string, unknown>) => {
      const doc = structuredClone(config) as Record<string, unknown>;
      doc.traders = { synthetic: [block] };
      return validate(doc);
    };
    const ok = { trades_per_day: 3, contracts: [1, 3], stop_ticks: 12, daily_profit_stop: '500.00' };
    expect(withBlock({ count: 2, strategy: 'random_bracket', params: ok })).toBe(true);
    expect(withBlock({ count: 2, strategy: 'mean_reversion', params: { ...ok, threshold_ticks: 20 } })).toBe(true);
    // threshold_ticks is mean_reversion's only; lookback_minutes is not random_bracket's.
    expect(withBlock({ count: 2, strategy: 'momentum_breakout', params: { threshold_ticks: 20 } })).toBe(false);
    expect(withBlock({ count: 2, strategy: 'random_bracket', params: { lookback_minutes: 30 } })).toBe(false);
    expect(withBlock({ count: 2, strategy: 'random_bracket', params: { trades_per_day: 0 } })).toBe(false);
    expect(withBlock({ count: 2, strategy: 'random_bracket', params: { contracts: [1, 2, 3] } })).toBe(false);
    expect(withBlock({ count: 2, strategy: 'random_bracket', params: { stop_after_daily_lock: 'yes' } })).toBe(false);
    expect(withBlock({ count: 2, strategy: 'random_bracket', params: { size_down_within: '0' } })).toBe(false);
    expect(withBlock({ count: 2, strategy: 'random_bracket', params: { daily_profit_stop: 500 } })).toBe(false);
  });
});
