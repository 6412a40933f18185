import type { Db, Tx } from '../../db/client';
import { hashToken, randomToken } from '../../auth/tokens';
import * as repo from './org-settings.repo';

// Camera webhook tokens: an ANPR camera posts its plate reads to POST /api/anpr/{siteId}/reads
// with a per-site secret. The secret is shown once, when it is made; only its SHA-256 hash is
// stored, with its last four characters to tell tokens apart.

const SECRET_PREFIX = 'bwcam_';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

/** A new secret: a recognisable prefix and 256 random bits. */
export function newCameraSecret(): { secret: string; hash: string; hint: string } {
  const secret = `${SECRET_PREFIX}${randomToken()}`;
  return { secret, hash: hashToken(secret), hint: secret.slice(-4) };
}

export type CameraTokenMatch = { id: string; orgId: string; siteId: string; name: string };

/**
 * The live token of `siteId` whose secret is `secret` (not revoked, its site and organization
 * active), or null. For the ANPR webhook: call `markCameraTokenUsed` once the read is accepted.
 */
export async function findCameraToken(db: Db | Tx, siteId: string, secret: string): Promise<CameraTokenMatch | null> {
  if (typeof siteId !== 'string' || !UUID.test(siteId) || typeof secret !== 'string' || !SECRET_PATTERN.test(secret)) return null;
  return (await repo.findLiveCameraTokenByHashAnyOrg(db, siteId, hashToken(secret))) ?? null;
}

/** Records when the camera last posted with this token (shown on the settings page). */
export async function markCameraTokenUsed(db: Db | Tx, token: Pick<CameraTokenMatch, 'orgId' | 'id'>, at: Date): Promise<void> {
  await repo.touchCameraToken(db, token, at);
}
