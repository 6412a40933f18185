// The arrival code: a short code the driver shows at the gate (typed, or as a QR code) that names
// one booking without being its manage link's token. It is derived on the server from the booking
// id with the server's key (server/modules/bookings/arrival-code.ts); this file holds what both
// sides need to print, read and type it.

/** Crockford's base 32: no I, L, O or U, so a typed code survives being read aloud or scribbled. */
export const ARRIVAL_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ARRIVAL_CODE_LENGTH = 8;
/** What a Baywise arrival QR code holds: this prefix and the code (no link, no token). */
export const ARRIVAL_QR_PREFIX = 'BAYWISE-ARRIVAL:';

/** The code as printed: two groups of four, e.g. `K7M2-9QXD`. */
export function formatArrivalCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What a driver typed (or a QR code held), as a code: case, spaces and dashes ignored, the letters
 * Crockford reads as digits (O → 0, I and L → 1) mapped; null when it cannot be a code.
 */
export function normalizeArrivalCode(input: string): string | null {
  let text = input.trim();
  if (text.toUpperCase().startsWith(ARRIVAL_QR_PREFIX)) text = text.slice(ARRIVAL_QR_PREFIX.length);
  const code = text
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (code.length !== ARRIVAL_CODE_LENGTH) return null;
  for (const ch of code) if (!ARRIVAL_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** The text of the booking's QR code. */
export function arrivalQrText(code: string): string {
  return `${ARRIVAL_QR_PREFIX}${code}`;
}
