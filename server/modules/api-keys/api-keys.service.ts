import { randomToken, hashToken } from '../../auth/tokens';
import {
  API_KEY_PREFIX,
  API_KEYS_PAGE_SIZE,
  MAX_ACTIVE_API_KEYS_PER_ORG,
  NO_TENANT_CONTACT_MESSAGE,
  apiKeyStatus,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyList,
  type ApiKeyScope,
  type CreatedApiKey,
} from '../../../domain/api-keys';
import type { AppContext } from '../../context';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { writeAudit, type AuditActor } from '../../audit/write-audit';
import * as repo from './api-keys.repo';

// API keys: an org admin makes one per tenant with scopes and an optional expiry, sees it listed
// with its last use, and revokes it at once. The secret is in the creation's answer only; the
// database keeps its SHA-256. Every write is audited; the SSC API (server/modules/ssc) checks
// keys with authenticateApiKey and scopes with requireScope.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SECRET_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);
/** last_used_at is written at most once a minute per key: a busy key does not write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toApiKey(row: repo.ApiKeyRow, now: Date): ApiKey {
  return {
    id: row.id,
    name: row.name,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    scopes: row.scopes as ApiKeyScope[],
    hint: row.hint,
    rateLimitPerMinute: row.rateLimitPerMinute,
    expiresAt: iso(row.expiresAt),
    createdAt: row.createdAt.toISOString(),
    createdByEmail: row.createdByEmail,
    lastUsedAt: iso(row.lastUsedAt),
    revokedAt: iso(row.revokedAt),
    status: apiKeyStatus(row, now),
  };
}

/** The organization's settings screens refetch their keys (entity 'organization', action 'api_key_…'). */
function publish(ctx: AppContext, scope: OrgScope, action: string, _keyId: string): void {
  ctx.realtime?.publish({ entity: 'organization', action: `api_key_${action}`, id: scope.orgId, orgId: scope.orgId, siteId: null, at: ctx.clock.now().toISOString() });
}

export async function listApiKeys(ctx: AppContext, scope: OrgScope, page: number): Promise<ApiKeyList> {
  requireOrgAdmin(scope);
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const [rows, total] = await Promise.all([
    repo.listApiKeys(db, scope.orgId, { limit: API_KEYS_PAGE_SIZE, offset: (page - 1) * API_KEYS_PAGE_SIZE }),
    repo.countApiKeys(db, scope.orgId),
  ]);
  return { keys: rows.map((row) => toApiKey(row, now)), total, page, pageSize: API_KEYS_PAGE_SIZE };
}

export async function createApiKey(ctx: AppContext, scope: OrgScope, input: ApiKeyCreate, ip: string | null): Promise<CreatedApiKey> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    const message = 'Expiry must be in the future';
    throw badRequest(message, [{ path: 'expiresAt', message }]);
  }
  const secret = `${API_KEY_PREFIX}${randomToken()}`;
  const hint = secret.slice(-4);
  const created = await ctx.database.db.transaction(async (tx) => {
    const tenant = UUID.test(input.tenantId) ? await repo.findTenant(tx, scope.orgId, input.tenantId) : undefined;
    if (!tenant) {
      const message = 'Choose one of this organization’s tenants';
      throw badRequest(message, [{ path: 'tenantId', message }]);
    }
    if (!tenant.contactEmails[0] && !tenant.email) throw badRequest(NO_TENANT_CONTACT_MESSAGE, [{ path: 'tenantId', message: NO_TENANT_CONTACT_MESSAGE }]);
    if ((await repo.countApiKeys(tx, scope.orgId, true)) >= MAX_ACTIVE_API_KEYS_PER_ORG) {
      throw conflict('too_many_api_keys', `An organization can have at most ${MAX_ACTIVE_API_KEYS_PER_ORG} live API keys. Revoke one first.`);
    }
    const { id } = await repo.insertApiKey(tx, {
      orgId: scope.orgId,
      tenantId: tenant.id,
      name: input.name,
      secretHash: hashToken(secret),
      secretHint: hint,
      scopes: input.scopes,
      rateLimitPerMinute: input.rateLimitPerMinute,
      expiresAt,
      createdBy: scope.userId,
      createdAt: now,
    });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'api_key.created',
      resourceType: 'api_key',
      resourceId: id,
      orgId: scope.orgId,
      // Never the secret: only what tells the key apart.
      details: {
        before: null,
        after: { name: input.name, tenant: tenant.name, scopes: input.scopes, hint, expiresAt: iso(expiresAt), rateLimitPerMinute: input.rateLimitPerMinute },
      },
      ip,
    });
    return (await repo.findApiKeyById(tx, scope.orgId, id))!;
  });
  publish(ctx, scope, 'created', created.id);
  return { ...toApiKey(created, now), secret };
}

/** Revokes at once: the next call with it is refused. Revoking a revoked key changes nothing. */
export async function revokeApiKey(ctx: AppContext, scope: OrgScope, keyId: string, ip: string | null): Promise<ApiKey> {
  requireOrgAdmin(scope);
  if (!UUID.test(keyId)) throw notFound('API key');
  const now = ctx.clock.now();
  const revoked = await ctx.database.db.transaction(async (tx) => {
    const key = await repo.revokeApiKey(tx, scope.orgId, keyId, now);
    if (key) {
      await writeAudit(tx, {
        actor: scope.auditActor,
        action: 'api_key.revoked',
        resourceType: 'api_key',
        resourceId: key.id,
        orgId: scope.orgId,
        details: { before: { name: key.name, hint: key.hint, revokedAt: null }, after: { name: key.name, hint: key.hint, revokedAt: now.toISOString() } },
        ip,
      });
    }
    const row = await repo.findApiKeyById(tx, scope.orgId, keyId);
    if (!row) throw notFound('API key');
    return row;
  });
  publish(ctx, scope, 'revoked', revoked.id);
  return toApiKey(revoked, now);
}

// ---- Checking a key on an API call ---------------------------------------------------------------

/** The caller of an API-key route: the key, its tenant and organization, and its scopes. */
export type ApiKeyPrincipal = {
  keyId: string;
  keyName: string;
  orgId: string;
  tenantId: string;
  scopes: readonly ApiKeyScope[];
  rateLimitPerMinute: number;
  /** How the audit log records the key as the actor (actor_role 'api_key'). */
  auditActor: NonNullable<AuditActor>;
};

export const API_KEY_REQUIRED = 'Send your API key as "Authorization: Bearer <key>"';

/** The secret of an `Authorization: Bearer …` header, or null. */
export function bearerSecret(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The live key whose secret is sent (401 when missing, unknown, revoked, expired or of an inactive
 * organization — each with its own message), its last use recorded (at most once a minute).
 */
export async function authenticateApiKey(ctx: AppContext, authorization: string | undefined): Promise<ApiKeyPrincipal> {
  const secret = bearerSecret(authorization);
  if (!secret) throw new AppError(401, 'api_key_required', API_KEY_REQUIRED);
  const key = SECRET_PATTERN.test(secret) ? await repo.findKeyBySecretHashAnyOrg(ctx.database.db, hashToken(secret)) : undefined;
  if (!key) throw new AppError(401, 'api_key_invalid', 'This API key is not valid');
  const now = ctx.clock.now();
  if (key.revokedAt) throw new AppError(401, 'api_key_revoked', 'This API key was revoked');
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) {
    throw new AppError(401, 'api_key_expired', `This API key expired at ${key.expiresAt.toISOString()}`);
  }
  if (!key.orgActive) throw new AppError(401, 'api_key_invalid', 'This API key’s organization is not active');
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) await repo.touchApiKey(ctx.database.db, key, now);
  return {
    keyId: key.id,
    keyName: key.name,
    orgId: key.orgId,
    tenantId: key.tenantId,
    scopes: key.scopes as ApiKeyScope[],
    rateLimitPerMinute: key.rateLimitPerMinute,
    auditActor: { id: key.id, email: null, role: 'api_key' },
  };
}

/** 403 unless the key carries `scope`. */
export function requireScope(principal: ApiKeyPrincipal, scope: ApiKeyScope): void {
  if (!principal.scopes.includes(scope)) throw forbidden(`This API key does not have the "${scope}" scope`);
}
