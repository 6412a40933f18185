import { createHmac } from 'node:crypto';

/**
 * The private manage link's token, derived from the booking id with the server's key: unguessable
 * without the key, stored only as a hash, and derivable again when the server must repeat it (an
 * idempotent replay's answer, a mail rendered by the outbox worker) without keeping it anywhere.
 */
export function manageTokenFor(secret: Uint8Array, bookingId: string): string {
  return createHmac('sha256', secret).update(`manage-link:v1:${bookingId}`).digest('base64url');
}
