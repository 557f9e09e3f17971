// What an error message may carry of its input (docs/api.md#what-an-error-echoes): at most ECHO_MAX_CHARS characters
// of it, then how long it was, and nothing a reader cannot see: control and format characters, the replacement
// character that stands for bytes that were not UTF-8, unpaired surrogates and unassigned code points are written as
// `\uXXXX`. So a refusal stays small whatever the body: a huge string is not echoed back whole, nor a binary body as
// raw bytes.

/** How many characters of one value a message shows. */
export const ECHO_MAX_CHARS = 100;

/** Characters written as escapes: Cc, Cf, Cs, Co and Cn, line and paragraph separators, U+FFFD. */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\u2028\u2029\ufffd]/gu;

/** `text` with what cannot be seen escaped (no bound). */
export function escapedText(text: string): string {
  return text.replace(UNSEEN, (char) => {
    const code = char.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `text` as a message echoes it: its first `max` characters, escaped, then `… (N characters)` when it is longer. */
export function echoed(text: string, max = ECHO_MAX_CHARS): string {
  if (text.length <= max) return escapedText(text);
  // Not cut inside a surrogate pair: a lone half would be escaped as if the input had it.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${escapedText(text.slice(0, end))}… (${text.length.toLocaleString('en-US')} characters)`;
}

/** A JSON value as a message echoes it: its JSON text, bounded and escaped (`nothing` when there is none). */
export function echoedValue(value: unknown, max = ECHO_MAX_CHARS): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return 'a value too deeply nested to show'; // a RangeError: the HTTP edge refuses such bodies before this
  }
  return text === undefined ? 'nothing' : echoed(text, max);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
