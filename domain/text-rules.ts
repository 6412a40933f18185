// What text we accept, in one place: every text field of every schema goes through these checks.
// PostgreSQL refuses NUL in text, and control characters or line breaks in a one-line field (a TSR
// number, a name, an e-mail address) end up as extra lines in e-mails and CSV files. Lone UTF-16
// surrogates are not text at all. Multi-line fields (notes, descriptions, reasons) keep tab and
// line breaks.

// C0 controls (including tab, CR and LF), DEL and the C1 controls.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
// The same without tab, LF and CR.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS_BUT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Bidirectional overrides and isolates can make a stored value read differently from what it is
// (a registration or a file name shown backwards).
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

/** True when `text` fits a one-line field: no control characters, line breaks, bidi overrides or lone surrogates. */
export function isSingleLineText(text: string): boolean {
  return !CONTROL_CHARACTERS.test(text) && !LONE_SURROGATE.test(text) && !BIDI_CONTROLS.test(text);
}

/** True when `text` fits a multi-line field: tab and line breaks allowed, other control characters not. */
export function isMultiLineText(text: string): boolean {
  return !CONTROL_CHARACTERS_BUT_LINE_BREAKS.test(text) && !LONE_SURROGATE.test(text) && !BIDI_CONTROLS.test(text);
}

/** The message for a one-line field that holds a control character or a line break. */
export const singleLineMessage = (label: string) => `${label} contains characters that are not allowed (control characters or line breaks)`;
/** The message for a multi-line field that holds a control character. */
export const multiLineMessage = (label: string) => `${label} contains characters that are not allowed (control characters)`;

/** For zod: `.refine(...singleLine('TSR Number'))`. */
export const singleLine = (label: string) => [isSingleLineText, { error: singleLineMessage(label), abort: true }] as const;
export const multiLine = (label: string) => [isMultiLineText, { error: multiLineMessage(label), abort: true }] as const;

/** Removes what a one-line value may not hold (for text we log or store from elsewhere, e.g. error events). */
export function toStorableText(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex -- NUL is what PostgreSQL refuses
    .replace(/\u0000/g, '\uFFFD')
    .replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}
