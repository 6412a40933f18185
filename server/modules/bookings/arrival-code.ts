import { createHmac } from 'node:crypto';
import { ARRIVAL_CODE_ALPHABET, ARRIVAL_CODE_LENGTH } from '../../../domain/arrival-code';

/**
 * The booking's arrival code (domain/arrival-code.ts), derived like the manage token from the
 * booking id with the server's key but under another label, so neither reveals the other. Nothing
 * is stored: the kiosk finds a booking by deriving the codes of the site's bookings near today
 * (40 bits: a clash among one site's few hundred bookings of a week is about one in ten million).
 */
export function arrivalCodeFor(secret: Uint8Array, bookingId: string): string {
  const digest = createHmac('sha256', secret).update(`arrival-code:v1:${bookingId}`).digest();
  let code = '';
  // 8 symbols × 5 bits = the first 40 bits of the digest.
  let bits = 0;
  let value = 0;
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && code.length < ARRIVAL_CODE_LENGTH) {
      bits -= 5;
      code += ARRIVAL_CODE_ALPHABET[(value >> bits) & 31];
    }
    value &= (1 << bits) - 1;
    if (code.length === ARRIVAL_CODE_LENGTH) break;
  }
  return code;
}
