// docs/api.md#what-an-error-echoes: what a message carries of its input is bounded and escaped.
import { describe, expect, it } from 'vitest';
import { bodyCheck } from '../../src/core/validation/body-check.js';
import { ECHO_MAX_CHARS, echoed, echoedValue, escapedText } from '../../src/core/validation/echo.js';
import { Type } from 'typebox';

describe('docs/api.md#what-an-error-echoes', () => {
  it('escapes control and format characters, undecodable bytes and lone surrogates; keeps letters of any script', () => {
    expect(escapedText('a\u0000b\u001fc\u007fd\u202ee\ufffdf\ud800g')).toBe(
      'a\\u0000b\\u001fc\\u007fd\\u202ee\\ufffdf\\ud800g',
    );
    expect(escapedText('Zoë 東京 😀')).toBe('Zoë 東京 😀');
  });

  it(`keeps the first ${ECHO_MAX_CHARS} characters and says how long the text was`, () => {
    expect(echoed('x'.repeat(ECHO_MAX_CHARS))).toBe('x'.repeat(ECHO_MAX_CHARS));
    expect(echoed('x'.repeat(5000))).toBe(`${'x'.repeat(ECHO_MAX_CHARS)}… (5,000 characters)`);
  });

  it('does not cut a surrogate pair in half', () => {
    const text = `${'x'.repeat(ECHO_MAX_CHARS - 1)}😀tail`;
    expect(echoed(text)).toBe(`${'x'.repeat(ECHO_MAX_CHARS - 1)}… (${text.length} characters)`);
  });

  it('echoes a value as bounded JSON, and what JSON cannot show as such', () => {
    expect(echoedValue('1')).toBe('"1"');
    expect(echoedValue(undefined)).toBe('nothing');
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(echoedValue(deep)).toMatch(/too deeply nested|… \(/);
  });

  it('a body with more unknown fields than the checker reports errors for is still refused, each one named', () => {
    const check = bodyCheck(Type.Object({ a: Type.Integer() }, { additionalProperties: false }));
    const value = { a: 1, ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])) };
    const problems = check.problems(value);
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p.message).toMatch(/^unknown field; expected one of a$/);
  });
});
