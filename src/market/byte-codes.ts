// ASCII codes of the bytes the market readers and writers look at, named once for every byte-level module.

export const NEWLINE = 10;
export const CARRIAGE_RETURN = 13;
export const SPACE = 32;
export const QUOTE = 34;
export const PLUS = 43;
export const COMMA = 44;
export const DASH = 45;
export const POINT = 46;
export const ZERO = 48;
export const COLON = 58;
export const LETTER_T = 84;
export const LETTER_Z = 90;
export const OPEN_BRACE = 123;
