import { createHash, randomUUID } from 'node:crypto';
import { LOGO_BUCKET } from '../../../domain/constants';
import type { z } from 'zod';
import {
  CUSTOM_RECIPIENTS_REQUIRED,
  MAX_ACTIVE_CAMERA_TOKENS_PER_SITE,
  readOrgSettings,
  type CameraToken,
  type CreatedCameraToken,
  type NumberPlateSettings,
  type OrgSettings,
  type OrgSettingsView,
  type cameraTokenCreateSchema,
  type orgProfilePatchSchema,
  type orgSettingsPatchSchema,
} from '../../../domain/org-settings';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../../audit/write-audit';
import { newCameraSecret } from './camera-tokens';
import type { LogoUpload } from './logo-upload';
import * as repo from './org-settings.repo';

// The organization's own settings: its profile and logo, the booking policy, who hears of new
// requests, and number-plate recognition with the cameras' webhook tokens. Admins change them;
// every change is audited with what it was and what it became, and pushed live.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type ProfilePatch = z.output<typeof orgProfilePatchSchema>;
type SettingsPatch = z.output<typeof orgSettingsPatchSchema>;
type CameraTokenCreate = z.output<typeof cameraTokenCreateSchema>;

function publish(ctx: AppContext, scope: OrgScope, action: string, siteId: string | null = null) {
  ctx.realtime?.publish({ entity: 'organization', action, id: scope.orgId, orgId: scope.orgId, siteId, at: ctx.clock.now().toISOString() });
}

const logoVersionOf = (key: string | null) => (key ? createHash('sha256').update(key).digest('hex').slice(0, 16) : null);

function toView(row: repo.OrgSettingsRow): OrgSettingsView {
  return {
    profile: {
      name: row.name,
      contactEmail: row.contactEmail,
      contactPhone: row.contactPhone,
      address: row.address,
      hasLogo: !!row.logoKey,
      logoVersion: logoVersionOf(row.logoKey),
    },
    settings: readOrgSettings(row.settings),
  };
}

async function loadRow(ctx: AppContext, scope: OrgScope) {
  const row = await repo.findOrgSettingsRow(ctx.database.db, scope.orgId);
  if (!row) throw notFound('Organization');
  return row;
}

/** The organization's settings with every default filled in, for other modules (the booking policy, who hears of new requests). */
export function readOrgSettingsOf(db: Db | Tx, orgId: string): Promise<OrgSettings> {
  return repo.readOrgSettingsOf(db, orgId);
}

/** Profile and settings, for the settings screen (admins). */
export async function getSettings(ctx: AppContext, scope: OrgScope): Promise<OrgSettingsView> {
  requireOrgAdmin(scope);
  return toView(await loadRow(ctx, scope));
}

/** What the plate scanner needs: the threshold and whether a match checks in (admins and dockmasters). */
export async function getNumberPlateSettings(ctx: AppContext, scope: OrgScope): Promise<NumberPlateSettings> {
  return readOrgSettings((await loadRow(ctx, scope)).settings).numberPlates;
}

/** The fields whose values differ, as { before, after } (null when nothing changed). */
function diff<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const keys = (Object.keys(after) as Array<keyof T>).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (keys.length === 0) return null;
  return {
    before: Object.fromEntries(keys.map((k) => [k, before[k]])) as Partial<T>,
    after: Object.fromEntries(keys.map((k) => [k, after[k]])) as Partial<T>,
  };
}

export async function updateProfile(ctx: AppContext, scope: OrgScope, patch: ProfilePatch, ip: string | null): Promise<OrgSettingsView> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const { row, changed } = await ctx.database.db.transaction(async (tx) => {
    const current = await repo.findOrgSettingsRow(tx, scope.orgId, true);
    if (!current) throw notFound('Organization');
    const profile = { name: current.name, contactEmail: current.contactEmail, contactPhone: current.contactPhone, address: current.address };
    const change = diff(profile, patch);
    if (!change) return { row: current, changed: false };
    await repo.updateOrganization(tx, scope.orgId, { ...change.after, updatedAt: now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'organization.profile_updated',
      resourceType: 'organization',
      resourceId: scope.orgId,
      orgId: scope.orgId,
      details: change,
      ip,
    });
    return { row: { ...current, ...change.after }, changed: true };
  });
  if (changed) publish(ctx, scope, 'updated');
  return toView(row);
}

type Section = keyof OrgSettings;
const SECTIONS: Section[] = ['booking', 'notifications', 'numberPlates', 'reminders', 'portal'];

export async function updateSettings(ctx: AppContext, scope: OrgScope, patch: SettingsPatch, ip: string | null): Promise<OrgSettingsView> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const { row, changed } = await ctx.database.db.transaction(async (tx) => {
    const current = await repo.findOrgSettingsRow(tx, scope.orgId, true);
    if (!current) throw notFound('Organization');
    const before = readOrgSettings(current.settings);
    const after: OrgSettings = {
      booking: { ...before.booking, ...patch.booking },
      notifications: { ...before.notifications, ...patch.notifications },
      numberPlates: { ...before.numberPlates, ...patch.numberPlates },
      reminders: { ...before.reminders, ...patch.reminders },
      portal: { ...before.portal, ...patch.portal },
    };
    // Checked on the settings as they would be: 'custom' with no address would tell nobody.
    if (after.notifications.newRequestRecipients === 'custom' && after.notifications.newRequestEmails.length === 0) {
      throw badRequest(CUSTOM_RECIPIENTS_REQUIRED, [{ path: 'notifications.newRequestEmails', message: CUSTOM_RECIPIENTS_REQUIRED }]);
    }
    const details: { before: Partial<Record<Section, unknown>>; after: Partial<Record<Section, unknown>> } = { before: {}, after: {} };
    for (const section of SECTIONS) {
      const change = diff(before[section] as Record<string, unknown>, after[section] as Record<string, unknown>);
      if (change) {
        details.before[section] = change.before;
        details.after[section] = change.after;
      }
    }
    if (Object.keys(details.after).length === 0) return { row: current, changed: false };
    // Keys this version does not know about are kept as they are.
    const settings = { ...current.settings, ...after };
    await repo.updateOrganization(tx, scope.orgId, { settings, updatedAt: now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'organization.settings_updated',
      resourceType: 'organization',
      resourceId: scope.orgId,
      orgId: scope.orgId,
      details,
      ip,
    });
    return { row: { ...current, settings }, changed: true };
  });
  if (changed) publish(ctx, scope, 'updated');
  return toView(row);
}

// ---- Logo ----------------------------------------------------------------------------------------

/**
 * Stores the new logo under a new key, then points the organization at it in one transaction with
 * its audit entry. After the commit the old object is deleted; if the transaction fails the new
 * one is, so the store never keeps a file nothing points at.
 */
export async function replaceLogo(ctx: AppContext, scope: OrgScope, upload: LogoUpload, ip: string | null): Promise<OrgSettingsView> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const key = `${scope.orgId}/logo-${randomUUID()}.${upload.extension}`;
  try {
    await ctx.storage.put(LOGO_BUCKET, key, upload.data, upload.contentType);
  } catch (error) {
    ctx.log.error({ err: error, orgId: scope.orgId }, 'could not store the logo');
    await ctx.storage.remove(LOGO_BUCKET, key).catch(() => undefined);
    throw new AppError(502, 'upload_failed', 'The logo could not be stored. Please try again.');
  }
  let result: { row: repo.OrgSettingsRow; oldKey: string | null };
  try {
    result = await ctx.database.db.transaction(async (tx) => {
      const current = await repo.findOrgSettingsRow(tx, scope.orgId, true);
      if (!current) throw notFound('Organization');
      await repo.updateOrganization(tx, scope.orgId, { logoKey: key, logoContentType: upload.contentType, updatedAt: now });
      await writeAudit(tx, {
        actor: scope.auditActor,
        action: 'organization.logo_updated',
        resourceType: 'organization',
        resourceId: scope.orgId,
        orgId: scope.orgId,
        details: {
          before: current.logoKey ? { contentType: current.logoContentType } : null,
          after: { contentType: upload.contentType, sizeBytes: upload.data.length },
        },
        ip,
      });
      return { row: { ...current, logoKey: key, logoContentType: upload.contentType }, oldKey: current.logoKey };
    });
  } catch (error) {
    await ctx.storage.remove(LOGO_BUCKET, key).catch((removeError: unknown) => ctx.log.error({ err: removeError, key }, 'could not remove an unused logo'));
    throw error;
  }
  await removeStoredLogo(ctx, result.oldKey);
  publish(ctx, scope, 'updated');
  return toView(result.row);
}

async function removeStoredLogo(ctx: AppContext, key: string | null) {
  if (!key) return;
  await ctx.storage.remove(LOGO_BUCKET, key).catch((error: unknown) => ctx.log.error({ err: error, key }, 'could not remove the replaced logo'));
}

export async function removeLogo(ctx: AppContext, scope: OrgScope, ip: string | null): Promise<OrgSettingsView> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const { row, oldKey } = await ctx.database.db.transaction(async (tx) => {
    const current = await repo.findOrgSettingsRow(tx, scope.orgId, true);
    if (!current) throw notFound('Organization');
    if (!current.logoKey) throw notFound('Logo');
    await repo.updateOrganization(tx, scope.orgId, { logoKey: null, logoContentType: null, updatedAt: now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'organization.logo_removed',
      resourceType: 'organization',
      resourceId: scope.orgId,
      orgId: scope.orgId,
      details: { before: { contentType: current.logoContentType }, after: null },
      ip,
    });
    return { row: { ...current, logoKey: null, logoContentType: null }, oldKey: current.logoKey };
  });
  await removeStoredLogo(ctx, oldKey);
  publish(ctx, scope, 'updated');
  return toView(row);
}

/** The logo's bytes and type, for any member of the organization. */
export async function getLogo(ctx: AppContext, scope: OrgScope) {
  const row = await loadRow(ctx, scope);
  if (!row.logoKey || !row.logoContentType) throw notFound('Logo');
  const body = await ctx.storage.get(LOGO_BUCKET, row.logoKey);
  if (!body) throw notFound('Logo');
  return { body, contentType: row.logoContentType, etag: `"${logoVersionOf(row.logoKey)}"` };
}

// ---- Camera tokens -------------------------------------------------------------------------------

type TokenRow = NonNullable<Awaited<ReturnType<typeof repo.findCameraTokenById>>>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toCameraToken = (t: TokenRow): CameraToken => ({
  id: t.id,
  name: t.name,
  siteId: t.siteId,
  siteName: t.siteName,
  hint: t.hint,
  createdAt: t.createdAt.toISOString(),
  createdByEmail: t.createdByEmail,
  lastUsedAt: iso(t.lastUsedAt),
  revokedAt: iso(t.revokedAt),
});

export async function listCameraTokens(ctx: AppContext, scope: OrgScope): Promise<CameraToken[]> {
  requireOrgAdmin(scope);
  return (await repo.listCameraTokens(ctx.database.db, scope.orgId)).map(toCameraToken);
}

const SITE_REQUIRED = 'Choose one of this organization’s sites';

export async function createCameraToken(ctx: AppContext, scope: OrgScope, input: CameraTokenCreate, ip: string | null): Promise<CreatedCameraToken> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const { secret, hash, hint } = newCameraSecret();
  const created = await ctx.database.db.transaction(async (tx) => {
    const site = UUID.test(input.siteId) ? await repo.findSite(tx, scope.orgId, input.siteId) : undefined;
    if (!site) throw badRequest(SITE_REQUIRED, [{ path: 'siteId', message: SITE_REQUIRED }]);
    if (!site.active) throw badRequest('This site is archived', [{ path: 'siteId', message: 'This site is archived' }]);
    if ((await repo.countActiveCameraTokens(tx, scope.orgId, site.id)) >= MAX_ACTIVE_CAMERA_TOKENS_PER_SITE) {
      throw conflict('too_many_camera_tokens', `A site can have at most ${MAX_ACTIVE_CAMERA_TOKENS_PER_SITE} active camera tokens. Revoke one first.`);
    }
    const { id } = await repo.insertCameraToken(tx, {
      orgId: scope.orgId,
      siteId: site.id,
      name: input.name,
      tokenHash: hash,
      tokenHint: hint,
      createdBy: scope.userId,
      createdAt: now,
    });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'camera_token.created',
      resourceType: 'camera_token',
      resourceId: id,
      orgId: scope.orgId,
      siteId: site.id,
      // Never the secret: only what tells the token apart.
      details: { before: null, after: { name: input.name, site: site.name, hint } },
      ip,
    });
    return (await repo.findCameraTokenById(tx, scope.orgId, id))!;
  });
  publish(ctx, scope, 'camera_token_created', created.siteId);
  return { ...toCameraToken(created), secret };
}

/** Revokes at once: the next webhook call with it is refused. Revoking a revoked token changes nothing. */
export async function revokeCameraToken(ctx: AppContext, scope: OrgScope, tokenId: string, ip: string | null): Promise<void> {
  requireOrgAdmin(scope);
  if (!UUID.test(tokenId)) throw notFound('Camera token');
  const now = ctx.clock.now();
  const revoked = await ctx.database.db.transaction(async (tx) => {
    const token = await repo.revokeCameraToken(tx, scope.orgId, tokenId, now);
    if (!token) {
      if (!(await repo.findCameraTokenById(tx, scope.orgId, tokenId))) throw notFound('Camera token');
      return null;
    }
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'camera_token.revoked',
      resourceType: 'camera_token',
      resourceId: token.id,
      orgId: scope.orgId,
      siteId: token.siteId,
      details: { before: { name: token.name, hint: token.hint, revokedAt: null }, after: { name: token.name, hint: token.hint, revokedAt: now.toISOString() } },
      ip,
    });
    return token;
  });
  if (revoked) publish(ctx, scope, 'camera_token_revoked', revoked.siteId);
}
