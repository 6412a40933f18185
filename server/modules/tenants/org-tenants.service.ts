import type { z } from 'zod';
import {
  TENANT_BOOKINGS_PAGE_SIZE,
  TENANT_PAGE_SIZE,
  type Tenant,
  type TenantBookings,
  type TenantDetail,
  type TenantImportError,
  type TenantImportResult,
  type TenantList,
  type tenantListQuerySchema,
  type tenantPatchSchema,
  type TenantStatus,
  type TenantValues,
} from '../../../domain/org-tenants';
import type { BookingStatus } from '../../../domain/enums';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../../audit/write-audit';
import * as repo from './org-tenants.repo';
import { parseTenantCsv } from './tenant-csv';

// Tenants: list, one tenant with its figures and bookings, create, change (policy, block and
// unblock) and import from CSV. Org admins write, dockmasters read; every write is audited and
// published live (entity 'tenant').

type TenantPatch = z.output<typeof tenantPatchSchema>;
type Field = { path: string; message: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A non-uuid id cannot name a tenant: 404, as for another organization's. */
function requireUuid(id: string): void {
  if (!UUID.test(id)) throw notFound('Tenant');
}

function toTenant(row: repo.TenantRow): Tenant {
  return {
    id: row.id,
    name: row.name,
    contactEmails: row.contactEmails,
    phone: row.phone,
    emailDomains: row.emailDomains,
    notes: row.notes,
    status: row.status as TenantStatus,
    blockedReason: row.blockedReason,
    autoApprove: row.autoApprove,
    standingRequestsAllowed: row.standingRequestsAllowed,
    allowedSiteIds: row.allowedSiteIds,
    maxBookingsPerDay: row.maxBookingsPerDay,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function publish(ctx: AppContext, scope: OrgScope, action: string, id: string, at: Date): void {
  ctx.realtime?.publish({ entity: 'tenant', action, id, orgId: scope.orgId, siteId: null, at: at.toISOString() });
}

function pgError(error: unknown): { code?: string; constraint?: string } {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  return { code: e?.code ?? e?.cause?.code, constraint: e?.constraint ?? e?.cause?.constraint };
}

const nameTaken = (name: string) => {
  const message = `A tenant named "${name}" already exists`;
  return conflict('tenant_name_taken', message, [{ path: 'name', message }]);
};

/** Allowed sites must be sites of this organization. */
async function checkSites(db: Db | Tx, orgId: string, ids: string[] | null | undefined): Promise<void> {
  if (!ids?.length) return;
  const found = await repo.findSites(db, orgId, ids);
  if (found.length !== ids.length) {
    const message = 'Choose sites of this organization';
    throw badRequest(message, [{ path: 'allowedSiteIds', message }]);
  }
}

/** A domain or contact e-mail links to one tenant only: one already claimed by another tenant is refused (409). */
async function checkClaims(db: Db | Tx, orgId: string, values: { emailDomains?: string[]; contactEmails?: string[] }, exceptId?: string): Promise<void> {
  const domains = values.emailDomains ?? [];
  const emails = values.contactEmails ?? [];
  const others = await repo.findClaims(db, orgId, { domains, emails }, exceptId);
  const fields: Field[] = [];
  for (const other of others) {
    for (const domain of domains.filter((d) => other.emailDomains.includes(d))) {
      fields.push({ path: 'emailDomains', message: `${domain} already links requests to ${other.name}` });
    }
    for (const email of emails.filter((e) => other.contactEmails.includes(e))) {
      fields.push({ path: 'contactEmails', message: `${email} is already a contact of ${other.name}` });
    }
  }
  if (fields.length) throw conflict('tenant_link_taken', fields.map((f) => f.message).join('. '), fields);
}

/** The stored row of new values (the legacy email and active columns follow the new ones). */
function toRow(scope: OrgScope, values: TenantValues, now: Date): repo.TenantInsert {
  const status = values.status ?? 'active';
  const contactEmails = values.contactEmails ?? [];
  return {
    orgId: scope.orgId,
    name: values.name,
    contactEmails,
    email: contactEmails[0] ?? null,
    phone: values.phone ?? null,
    emailDomains: values.emailDomains ?? [],
    notes: values.notes ?? null,
    status,
    active: status === 'active',
    blockedReason: status === 'blocked' ? (values.blockedReason ?? null) : null,
    autoApprove: values.autoApprove ?? false,
    standingRequestsAllowed: values.standingRequestsAllowed ?? false,
    allowedSiteIds: values.allowedSiteIds ?? null,
    maxBookingsPerDay: values.maxBookingsPerDay ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

const policyOf = (row: repo.TenantInsert | repo.TenantRow) => ({
  status: row.status,
  auto_approve: row.autoApprove,
  standing_requests_allowed: row.standingRequestsAllowed,
  allowed_site_ids: row.allowedSiteIds,
  max_bookings_per_day: row.maxBookingsPerDay,
  email_domains: row.emailDomains,
  contact_emails: row.contactEmails,
});

export async function listTenants(ctx: AppContext, scope: OrgScope, query: z.output<typeof tenantListQuerySchema>): Promise<TenantList> {
  const { rows, total } = await repo.listTenants(ctx.database.db, scope.orgId, { ...query, pageSize: TENANT_PAGE_SIZE });
  return {
    items: rows.map((r) => ({ ...toTenant(r.tenant), bookingCount: r.bookingCount })),
    total,
    page: query.page,
    pageSize: TENANT_PAGE_SIZE,
  };
}

export async function getTenant(ctx: AppContext, scope: OrgScope, id: string): Promise<TenantDetail> {
  requireUuid(id);
  const db = ctx.database.db;
  const row = await repo.findTenant(db, scope.orgId, id);
  if (!row) throw notFound('Tenant');
  const [figures, allowedSites] = await Promise.all([
    repo.tenantFigures(db, scope.orgId, id, ctx.clock.now()),
    row.allowedSiteIds ? repo.findSites(db, scope.orgId, row.allowedSiteIds) : Promise.resolve(null),
  ]);
  return {
    ...toTenant(row),
    allowedSites,
    figures: { ...figures, onTimeRate: figures.arrivals > 0 ? figures.onTimeArrivals / figures.arrivals : null },
  };
}

export async function listTenantBookings(ctx: AppContext, scope: OrgScope, id: string, page: number): Promise<TenantBookings> {
  requireUuid(id);
  const db = ctx.database.db;
  if (!(await repo.findTenant(db, scope.orgId, id))) throw notFound('Tenant');
  const { rows, total } = await repo.listTenantBookings(db, scope.orgId, id, page, TENANT_BOOKINGS_PAGE_SIZE);
  return {
    items: rows.map(({ total: _total, ...b }) => ({
      ...b,
      status: b.status as BookingStatus,
      startTime: b.startTime.toISOString(),
      endTime: b.endTime.toISOString(),
      createdAt: b.createdAt.toISOString(),
    })),
    total,
    page,
    pageSize: TENANT_BOOKINGS_PAGE_SIZE,
  };
}

export async function createTenant(ctx: AppContext, scope: OrgScope, input: TenantValues, ip: string | null): Promise<TenantDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  let id = '';
  try {
    await ctx.database.db.transaction(async (tx) => {
      await checkSites(tx, scope.orgId, input.allowedSiteIds);
      await checkClaims(tx, scope.orgId, input);
      const values = toRow(scope, input, now);
      const [row] = await repo.insertTenants(tx, [values]);
      id = row!.id;
      await writeAudit(tx, {
        actor: scope.auditActor,
        action: 'tenant.created',
        resourceType: 'tenant',
        resourceId: id,
        orgId: scope.orgId,
        details: { name: row!.name, ...policyOf(row!) },
        ip,
      });
    });
  } catch (error) {
    const pg = pgError(error);
    if (pg.code === '23505') throw nameTaken(input.name);
    throw error;
  }
  publish(ctx, scope, 'created', id, now);
  return getTenant(ctx, scope, id);
}

const CHANGEABLE = ['name', 'contactEmails', 'phone', 'emailDomains', 'notes', 'status', 'blockedReason', 'autoApprove', 'standingRequestsAllowed', 'allowedSiteIds', 'maxBookingsPerDay'] as const;

export async function updateTenant(ctx: AppContext, scope: OrgScope, id: string, patch: TenantPatch, ip: string | null): Promise<TenantDetail> {
  requireOrgAdmin(scope);
  requireUuid(id);
  const now = ctx.clock.now();
  let action: string | null = null;
  try {
    await ctx.database.db.transaction(async (tx) => {
      const current = await repo.findTenant(tx, scope.orgId, id, true);
      if (!current) throw notFound('Tenant');
      const status = patch.status ?? (current.status as TenantStatus);
      const next: Partial<repo.TenantInsert> = {};
      for (const field of CHANGEABLE) {
        if (patch[field] !== undefined) (next as Record<string, unknown>)[field] = patch[field];
      }
      // The reason belongs to a block: kept while blocked, cleared when active again.
      next.blockedReason = status === 'blocked' ? (patch.blockedReason !== undefined ? patch.blockedReason : current.blockedReason) : null;
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const [field, value] of Object.entries(next)) {
        const before = current[field as keyof repo.TenantRow];
        if (JSON.stringify(before) !== JSON.stringify(value)) changes[field] = { from: before, to: value };
      }
      if (Object.keys(changes).length === 0) return;
      if (changes.allowedSiteIds) await checkSites(tx, scope.orgId, patch.allowedSiteIds);
      if (changes.emailDomains || changes.contactEmails) {
        await checkClaims(tx, scope.orgId, { emailDomains: patch.emailDomains, contactEmails: patch.contactEmails }, id);
      }
      if (changes.status) next.active = status === 'active';
      if (changes.contactEmails) next.email = (patch.contactEmails ?? [])[0] ?? null;
      next.updatedAt = now;
      await repo.updateTenant(tx, scope.orgId, id, next);
      action = changes.status ? (status === 'blocked' ? 'blocked' : 'unblocked') : 'updated';
      await writeAudit(tx, {
        actor: scope.auditActor,
        action: `tenant.${action}`,
        resourceType: 'tenant',
        resourceId: id,
        orgId: scope.orgId,
        details: { name: next.name ?? current.name, changes, ...(status === 'blocked' && changes.status ? { reason: next.blockedReason } : {}) },
        ip,
      });
    });
  } catch (error) {
    if (pgError(error).code === '23505') throw nameTaken(patch.name ?? '');
    throw error;
  }
  if (action) publish(ctx, scope, action, id, now);
  return getTenant(ctx, scope, id);
}

const importInvalid = (errors: TenantImportError[]) =>
  new AppError(
    400,
    'import_invalid',
    `${errors.length} problem${errors.length === 1 ? '' : 's'} found in the file; nothing was imported. Fix ${errors.length === 1 ? 'it' : 'them'} and import the file again.`,
    { errors: errors.sort((a, b) => a.row - b.row) },
  );

/**
 * Imports tenants from CSV, all or nothing: every row is validated with the tenant schema, names
 * must be new (in the file and in the organization), and a domain or contact e-mail may link to one
 * tenant only. Any problem → 400 listing every one ({row, column, message}) and nothing stored;
 * otherwise every row is created in one transaction.
 */
export async function importTenants(ctx: AppContext, scope: OrgScope, text: string, ip: string | null): Promise<TenantImportResult> {
  requireOrgAdmin(scope);
  const { rows, keys, errors } = parseTenantCsv(text);
  const db = ctx.database.db;

  // Within the file: one row per name, domain and contact e-mail (rows with other faults too).
  const seen = { name: new Map<string, number>(), email_domains: new Map<string, number>(), contact_emails: new Map<string, number>() };
  const once = (column: keyof typeof seen, key: string, line: number, what: string) => {
    const first = seen[column].get(key);
    if (first !== undefined) errors.push({ row: line, column, message: `${what} is already on line ${first} of this file` });
    else seen[column].set(key, line);
  };
  for (const { line, name, emailDomains, contactEmails } of keys) {
    if (name) once('name', name.toLowerCase(), line, `The name "${name}"`);
    for (const domain of emailDomains) once('email_domains', domain, line, `The domain ${domain}`);
    for (const email of contactEmails) once('contact_emails', email, line, `The e-mail ${email}`);
  }

  // Against the organization's tenants.
  const names = keys.flatMap((k) => (k.name ? [k.name] : []));
  const existingNames = new Map((await repo.findNames(db, scope.orgId, names)).map((n) => [n.name.toLowerCase(), n.name]));
  const claims = await repo.findClaims(db, scope.orgId, { domains: keys.flatMap((k) => k.emailDomains), emails: keys.flatMap((k) => k.contactEmails) });
  for (const { line, name, emailDomains, contactEmails } of keys) {
    const existing = name ? existingNames.get(name.toLowerCase()) : undefined;
    if (existing) errors.push({ row: line, column: 'name', message: `A tenant named "${existing}" already exists` });
    for (const other of claims) {
      for (const domain of emailDomains.filter((d) => other.emailDomains.includes(d))) {
        errors.push({ row: line, column: 'email_domains', message: `${domain} already links requests to ${other.name}` });
      }
      for (const email of contactEmails.filter((e) => other.contactEmails.includes(e))) {
        errors.push({ row: line, column: 'contact_emails', message: `${email} is already a contact of ${other.name}` });
      }
    }
  }
  if (errors.length) throw importInvalid(errors);

  const now = ctx.clock.now();
  let created: repo.TenantRow[] = [];
  try {
    await db.transaction(async (tx) => {
      created = await repo.insertTenants(tx, rows.map((r) => toRow(scope, r.values, now)));
      await writeAudit(tx, {
        actor: scope.auditActor,
        action: 'tenant.imported',
        resourceType: 'tenant',
        resourceId: null,
        orgId: scope.orgId,
        details: { count: created.length, tenants: created.map((t) => ({ id: t.id, name: t.name })) },
        ip,
      });
    });
  } catch (error) {
    // A tenant of the same name created meanwhile.
    if (pgError(error).code === '23505') {
      throw importInvalid([{ row: 1, column: 'name', message: 'A tenant with one of these names was created meanwhile; nothing was imported. Import the file again to see which.' }]);
    }
    throw error;
  }
  if (created[0]) publish(ctx, scope, 'imported', created[0].id, now);
  return { imported: created.length };
}
