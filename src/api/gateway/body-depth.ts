// How deep a JSON body may nest (docs/api.md#what-an-error-echoes): 32 levels, far more than any route's body has
// (provisioning's is 3). The check reads the text once, before it is parsed, so that nothing after it (the prototype
// check, the schema's checker, the error messages, the idempotency fingerprint) walks a value thousands of levels
// deep: arrays nested 5,000 deep had ended in a stack overflow and a 500.

/** The deepest a body may nest: `{"a":[1]}` is 2 levels deep. */
export const MAX_BODY_DEPTH = 32;

/** Whether JSON text nests deeper than `max` levels of objects and arrays (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}
