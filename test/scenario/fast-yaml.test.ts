// src/scenario/fast-yaml.ts: the fast path gives the `yaml` library's value (YAML 1.2 core schema, as yaml-source.ts
// configures it) for every YAML file of the project and for each scalar form the core schema resolves, and leaves
// to the library what the two would judge differently.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseDocument, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { plainYamlValue } from '../../src/scenario/fast-yaml.js';

const library = (text: string) =>
  parseDocument(text, { version: '1.2', schema: 'core', resolveKnownTags: false, uniqueKeys: true }).toJS();

function yamlFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

describe('the fast YAML path (src/scenario/fast-yaml.ts)', () => {
  it("gives the library's value for every YAML file of the project's scenarios, fixtures and tests", () => {
    const files = ['scenarios', 'fixtures', 'test'].flatMap(yamlFiles);
    expect(files.length).toBeGreaterThan(20);
    let fast = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const value = plainYamlValue(text);
      if (value === undefined) continue;
      fast++;
      expect(value, file).toStrictEqual(library(text));
    }
    expect(fast, 'most files take the fast path').toBeGreaterThan(files.length / 2);
  });

  it('resolves each scalar form of the YAML 1.2 core schema as the library does, and the YAML 1.1 forms as strings', () => {
    const scalars = [
      '~',
      'null',
      'Null',
      'NULL',
      '',
      'true',
      'True',
      'TRUE',
      'false',
      'FALSE',
      'yes',
      'no',
      'on',
      'off',
      'y',
      'n',
      '0',
      '-0',
      '+12',
      '010',
      '0o17',
      '0x1F',
      '0X1F',
      '0b101',
      '1_000',
      '12:30',
      '1.',
      '.5',
      '-1.25',
      '1e3',
      '-2.5E-2',
      '.inf',
      '-.Inf',
      '+.INF',
      '.nan',
      '.NaN',
      '2026-03-02',
      '2026-03-02T08:00:00-06:00',
      '"5"',
      "'true'",
      '5000.00',
      '123456789012345678901',
      'abc # a comment',
    ];
    const text = scalars.map((scalar, i) => `k${i}: ${scalar}`).join('\n');
    expect(plainYamlValue(text)).toStrictEqual(library(text));
  });

  it('keys: numbers and booleans are written as the library writes them', () => {
    const text = '1: a\n1.50: b\ntrue: c\n0x10: d\nnested:\n  - 2: e\n';
    expect(plainYamlValue(text)).toStrictEqual(library(text));
  });

  it('leaves to the library: aliases, tags, directives, explicit and collection keys, null and __proto__ keys, non-mappings, duplicate keys', () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      '%YAML 1.1\n---\na: 1\n',
      '? a\n: 1\n',
      '[a, b]: 1\n',
      '~: 1\n',
      'null: 1\n',
      '__proto__: 1\n',
      'a:\n  __proto__: {b: 1}\n',
      '- 1\n- 2\n',
      'just a string\n',
      '',
      'a: 1\na: 2\n',
      'a: [1, 2\n',
    ])
      expect(plainYamlValue(text), JSON.stringify(text)).toBeUndefined();
  });

  it('agrees with the library, or leaves the text to it, on generated documents (fast-check)', () => {
    // Plain text that either parser could read differently: the core schema's forms, YAML 1.1 forms, flow
    // indicators, comments, quotes, and any string fast-check makes.
    const tricky = fc.constantFrom(
      '~',
      'null',
      'yes',
      'On',
      '0o17',
      '0x1F',
      '010',
      '1_000',
      '12:30',
      '.5',
      '1e3',
      '-.inf',
      '.NaN',
      '2026-03-02',
      '5000.00',
      '-0',
      '+12',
      '# x',
      'a: b',
      '- x',
      '[x]',
      '{x}',
      "'q'",
      '"q"',
      '',
    );
    const scalar = fc.oneof(tricky, fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const key = fc.oneof(tricky, fc.string({ minLength: 1 }));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ maxDepth: 3 }, scalar, tie('list'), tie('map')),
      list: fc.array(tie('value'), { maxLength: 4 }),
      map: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    }));
    const style = fc.constantFrom({}, { collectionStyle: 'flow' as const }, { defaultStringType: 'PLAIN' as const });
    let fastTaken = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), style, (document, options) => {
        const text = stringify(document, options);
        const fast = plainYamlValue(text);
        if (fast === undefined) return;
        fastTaken++;
        expect(fast, text).toStrictEqual(library(text));
      }),
      { numRuns: 2000, seed: 20261128 },
    );
    expect(fastTaken, 'documents that took the fast path').toBeGreaterThan(500);
  });
});
