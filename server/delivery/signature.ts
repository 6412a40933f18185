import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The signature of every delivery (docs/webhooks.md): header `Baywise-Signature: t=<unix seconds>,v1=<hex>`
// where hex = HMAC-SHA256(secret, `${t}.${body}`). The receiver recomputes it over the raw body,
// compares in constant time and refuses a timestamp older than its tolerance (replays).

export const SIGNING_SECRET_PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
}

export function signatureHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureHex(secret, timestamp, body)}`;
}

/** The receiver's check (as in docs/webhooks.md): true when a v1 signature matches and t is within tolerance. */
export function verifySignature(secret: string, header: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureHex(secret, t, body), 'hex');
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const given = Buffer.from(v ?? '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
