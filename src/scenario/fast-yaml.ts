// The value of a plain YAML scenario by js-yaml, which reads a large scenario several times sooner than the `yaml`
// library builds its document (the replay benchmark, docs/performance.md), with the YAML 1.2 core schema the library
// applies (yaml-source.ts): the same null, bool, int and float forms, everything else a string. What the two might
// judge differently goes to the library instead (undefined here): anchors and aliases (the library bounds alias
// expansion), tags, directives, explicit or collection keys, null keys (the library writes them as "", js-yaml as
// "null"), a `__proto__` key, a text that is not a mapping, and any text js-yaml refuses (the library then names the
// error and its line).
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';

/**
 * One implicit scalar type of the YAML 1.2 core schema: the `yaml` library's patterns for it, each with its value,
 * tried in the library's order (node_modules/yaml/dist/schema/core). js-yaml keeps one type per tag, so each tag's
 * forms are one type.
 */
const scalar = (tag: string, forms: Array<[RegExp, (text: string) => unknown]>) =>
  new Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve: (text: string | null) => forms.some(([pattern]) => pattern.test(text ?? '')),
    construct: (text: string | null) => forms.find(([pattern]) => pattern.test(text ?? ''))![1](text ?? ''),
  });

/** A signed integer the way the library reads one: the sign, then the digits in `radix` after `skip` characters. */
const integer = (skip: number, radix: number) => (text: string) => {
  const sign = text[0] === '-' || text[0] === '+' ? 1 : 0;
  const n = parseInt(text.slice(skip + sign), radix);
  return text[0] === '-' ? -n : n;
};

const CORE_1_2 = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]),
    scalar('bool', [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (text) => text[0] === 't' || text[0] === 'T']]),
    scalar('int', [
      [/^0o[0-7]+$/, integer(2, 8)],
      [/^[-+]?[0-9]+$/, integer(0, 10)],
      [/^0x[0-9a-fA-F]+$/, integer(2, 16)],
    ]),
    scalar('float', [
      [
        /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
        (text) => (text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? -Infinity : Infinity),
      ],
      [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, parseFloat],
      [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, parseFloat],
    ]),
  ],
});

/** Text the fast path leaves to the library: aliases, tags, directives, explicit keys, collection keys. */
const LEFT_TO_THE_LIBRARY = /[*!]|^%|^\s*\?(?:\s|$)|[\]}]\s*:(?:\s|$)/m;

/** The mapping a plain YAML text holds, or undefined when the `yaml` library must judge it. */
export function plainYamlValue(text: string): object | undefined {
  if (LEFT_TO_THE_LIBRARY.test(text)) return undefined;
  let value: unknown;
  try {
    value = load(text, { schema: CORE_1_2 });
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !keysAsTheLibrary(value)) return undefined;
  return value;
}

/** Whether every key below `value` is one the library writes the same (not "null", not `__proto__`). */
function keysAsTheLibrary(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysAsTheLibrary);
  if (value === null || typeof value !== 'object') return true;
  for (const key of Object.keys(value))
    if (key === 'null' || key === '__proto__' || !keysAsTheLibrary((value as Record<string, unknown>)[key]))
      return false;
  return !Object.prototype.hasOwnProperty.call(value, '__proto__');
}
