// Option values that yargs checks as it parses (its `coerce` hook), so a bad one is a usage error like an
// unknown flag: exit 2, the flag named. Numbers are read from the text as typed, so "1e3", "0x10" and ""
// are refused rather than turned into 1000, 16 and 0.
import { CliInputError } from './input-error.js';

const DIGITS = /^\d+$/;

/** A yargs coerce function for a whole number ≥ `min` written in plain digits. */
export function wholeNumberFlag(flag: string, min: number): (value: unknown) => number {
  return (value) => {
    const text = Array.isArray(value) ? value[value.length - 1] : value;
    const number = typeof text === 'string' && DIGITS.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min) {
      throw new CliInputError(
        `--${flag}: expected a whole number of at least ${min}, written in digits, got ${JSON.stringify(text ?? '')}`,
      );
    }
    return number;
  };
}
