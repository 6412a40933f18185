import { KIOSK_AUTH_SCHEME, KIOSK_SECRET_PREFIX } from '../../../domain/kiosk';
import type { Language } from '../../../domain/languages';
import { readPortalSettings } from '../../../domain/org-settings';
import type { Db, Tx } from '../../db/client';
import { hashToken, randomToken } from '../../auth/tokens';
import { AppError } from '../../plugins/errors';
import * as repo from './kiosk.repo';

// Kiosk devices (decision 041): a tablet at the gate house authenticates with a per-device secret,
// like the cameras' webhook tokens. The secret is shown once, when the device is registered; only
// its SHA-256 hash is stored, with its last four characters to tell devices apart.

const SECRET_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;
const TOUCH_EVERY_MS = 60_000;

/** A new secret: a recognisable prefix and 256 random bits. */
export function newKioskSecret(): { secret: string; hash: string; hint: string } {
  const secret = `${KIOSK_SECRET_PREFIX}${randomToken()}`;
  return { secret, hash: hashToken(secret), hint: secret.slice(-4) };
}

/** A kiosk that may act: its site, the site's time zone and organization (with its portal's default language). */
export type KioskDevice = {
  id: string;
  name: string;
  orgId: string;
  siteId: string;
  siteName: string;
  timeZone: string;
  orgName: string;
  defaultLanguage: Language;
  logoKey: string | null;
  logoContentType: string | null;
};

/** The secret of `Authorization: Kiosk <secret>` (or Bearer), or null. */
export function kioskSecretOf(authorization: string | undefined): string | null {
  const match = new RegExp(`^(?:${KIOSK_AUTH_SCHEME}|Bearer)\\s+(\\S+)\\s*$`, 'i').exec(authorization ?? '');
  return match ? match[1]! : null;
}

const refused = (code: string, message: string) => new AppError(401, code, message);

/**
 * The live device whose secret is `secret`; otherwise a 401 that says what to do: no or an unknown
 * secret, a revoked device, or a device of an archived site or an inactive organization.
 */
export async function authenticateKiosk(db: Db | Tx, secret: string | null): Promise<KioskDevice> {
  if (!secret) throw refused('kiosk_secret_required', 'This kiosk needs its device secret (Authorization: Kiosk <secret>). Ask an organization admin to register it.');
  const row = SECRET_PATTERN.test(secret) ? await repo.findDeviceByHashAnyOrg(db, hashToken(secret)) : undefined;
  if (!row) throw refused('kiosk_unknown', 'This kiosk secret is not valid. Ask an organization admin for the secret of a registered kiosk.');
  if (row.revokedAt) throw refused('kiosk_revoked', 'This kiosk has been revoked by an organization admin. Ask them to register it again.');
  if (!row.siteActive || !row.orgActive || row.orgStatus !== 'active') {
    throw refused('kiosk_inactive', 'This kiosk’s site or organization is no longer active. Ask an organization admin.');
  }
  return {
    id: row.id,
    name: row.name,
    orgId: row.orgId,
    siteId: row.siteId,
    siteName: row.siteName,
    timeZone: row.timeZone,
    orgName: row.orgName,
    defaultLanguage: readPortalSettings(row.orgPortalSettings).defaultLanguage,
    logoKey: row.logoKey,
    logoContentType: row.logoContentType,
  };
}

/** Records when the kiosk was last used (at most once a minute: a waiting screen polls). */
export async function markKioskUsed(db: Db | Tx, device: Pick<KioskDevice, 'orgId' | 'id'>, at: Date): Promise<void> {
  await repo.touchDevice(db, device, at, new Date(at.getTime() - TOUCH_EVERY_MS));
}
