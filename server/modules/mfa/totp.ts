import { randomInt } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { MFA_ISSUER, RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_S, TOTP_WINDOW } from '../../../domain/auth-schemas';

// TOTP (RFC 6238) through otpauth: SHA-1, 6 digits, 30 s — what every authenticator app reads from
// an otpauth:// URI. Pure functions; the service keeps the secret, the last step used and the
// recovery codes in the database.

const totpOptions = { algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_S } as const;

/** A new random secret (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

/** otpauth://totp/Baywise:{email}?secret=…&issuer=Baywise&… */
export function otpauthUri(secret: string, email: string): string {
  return new OTPAuth.TOTP({ ...totpOptions, issuer: MFA_ISSUER, label: email, secret: OTPAuth.Secret.fromBase32(secret) }).toString();
}

/** The URI as an SVG QR code in a data: URL, drawn here (nothing is fetched by the browser). */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The time step of `at` (seconds since the epoch / 30). */
export function totpStep(at: Date): number {
  return OTPAuth.TOTP.counter({ period: TOTP_PERIOD_S, timestamp: at.getTime() });
}

/** The step `code` belongs to, within one step either side of `at`; null when it matches none. */
export function matchTotpStep(secret: string, code: string, at: Date): number | null {
  const delta = OTPAuth.TOTP.validate({
    ...totpOptions,
    token: code,
    secret: OTPAuth.Secret.fromBase32(secret),
    timestamp: at.getTime(),
    window: TOTP_WINDOW,
  });
  return delta === null ? null : totpStep(at) + delta;
}

/** The code of `at` (tests, and nothing else: the server never needs to produce a code). */
export function totpCode(secret: string, at: Date): string {
  return OTPAuth.TOTP.generate({ ...totpOptions, secret: OTPAuth.Secret.fromBase32(secret), timestamp: at.getTime() });
}

// Recovery codes: 16 characters from 31 that cannot be mistaken for each other (79 bits each),
// shown as xxxx-xxxx-xxxx-xxxx and stored only as SHA-256 hashes.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** A recovery code as typed, reduced to what is hashed: lower case, no dashes or spaces. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}
