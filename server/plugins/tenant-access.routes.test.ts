import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_READ_ONLY_CODE, PLATFORM_READ_ONLY_MESSAGE, isReadMethod } from '../../domain/tenant-access';
import { tenants } from '../db/schema';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../test/fixtures';
import { appRoutes } from '../test/app-routes';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';

// Every route of a tenant (/api/orgs/:orgId/* and /api/sites/:siteId/*, read from the app's own
// route table) × every kind of caller, against a policy declared here per route (issue 21,
// decision 029):
// - anonymous → 401; another organization's admin → 404 (the scope's "not found", never data);
// - platform staff (super admin, platform owner, platform support) read every route and change
//   nothing: any other method answers 403 platform_read_only, and the tenant's data is the same
//   byte for byte afterwards;
// - an impersonation session is the member's session: it gets what the member gets;
// - the organization's own roles get what the route's policy says.
// A route without a declared policy fails the test, so a new route must say who may use it.

const NOW = '2026-11-23T00:00:00Z';
const REASON = 'Ticket 4711: checking what the customer sees';

/**
 * Who of an organization may use a route (platform staff and strangers follow from the method):
 * admin — organization admins; staff — admins and dockmasters; member — any active member,
 * security staff included; gate — dock staff of the site (admins, dockmasters, security);
 * gate_staff — admins and dockmasters at the site (security staff are refused).
 */
type Policy = 'admin' | 'staff' | 'member' | 'gate' | 'gate_staff';

const POLICY: Record<string, Policy> = {
  'GET /api/orgs/:orgId/sites': 'member',
  'POST /api/orgs/:orgId/sites': 'admin',
  'GET /api/orgs/:orgId/sites/all': 'staff',
  'GET /api/orgs/:orgId/sites/:siteId': 'staff',
  'PATCH /api/orgs/:orgId/sites/:siteId': 'admin',
  'POST /api/orgs/:orgId/sites/:siteId/deactivate': 'admin',
  'POST /api/orgs/:orgId/sites/:siteId/reactivate': 'admin',
  'GET /api/orgs/:orgId/sites/:siteId/holidays': 'staff',
  'POST /api/orgs/:orgId/sites/:siteId/holidays': 'admin',
  'DELETE /api/orgs/:orgId/sites/:siteId/holidays/:holidayId': 'admin',
  'GET /api/orgs/:orgId/schedule': 'staff',
  'GET /api/orgs/:orgId/settings': 'admin',
  'PATCH /api/orgs/:orgId/settings': 'admin',
  'PATCH /api/orgs/:orgId/settings/profile': 'admin',
  'GET /api/orgs/:orgId/settings/number-plates': 'staff',
  'PUT /api/orgs/:orgId/settings/logo': 'admin',
  'GET /api/orgs/:orgId/settings/logo': 'staff',
  'DELETE /api/orgs/:orgId/settings/logo': 'admin',
  'GET /api/orgs/:orgId/settings/camera-tokens': 'admin',
  'POST /api/orgs/:orgId/settings/camera-tokens': 'admin',
  'DELETE /api/orgs/:orgId/settings/camera-tokens/:tokenId': 'admin',
  'GET /api/orgs/:orgId/settings/kiosk-devices': 'admin',
  'POST /api/orgs/:orgId/settings/kiosk-devices': 'admin',
  'DELETE /api/orgs/:orgId/settings/kiosk-devices/:deviceId': 'admin',
  'GET /api/orgs/:orgId/ssc-subscriptions': 'admin',
  'DELETE /api/orgs/:orgId/ssc-subscriptions/:subscriptionId': 'admin',
  'GET /api/orgs/:orgId/ssc-subscriptions/:subscriptionId/deliveries': 'admin',
  'POST /api/orgs/:orgId/ssc-subscriptions/:subscriptionId/deliveries/:deliveryId/redeliver': 'admin',
  'GET /api/orgs/:orgId/audit': 'admin',
  'GET /api/orgs/:orgId/audit/filters': 'admin',
  'GET /api/orgs/:orgId/audit/csv': 'admin',
  'GET /api/orgs/:orgId/api-keys': 'admin',
  'POST /api/orgs/:orgId/api-keys': 'admin',
  'POST /api/orgs/:orgId/api-keys/:keyId/revoke': 'admin',
  'GET /api/orgs/:orgId/bookings': 'staff',
  'POST /api/orgs/:orgId/bookings': 'staff',
  'POST /api/orgs/:orgId/bookings/preview': 'staff',
  'POST /api/orgs/:orgId/bookings/preview-sites': 'staff',
  'POST /api/orgs/:orgId/bookings/resolve-affected': 'admin',
  'GET /api/orgs/:orgId/bookings/:bookingId': 'staff',
  'POST /api/orgs/:orgId/bookings/:bookingId/transitions': 'staff',
  'POST /api/orgs/:orgId/bookings/:bookingId/extend': 'staff',
  'POST /api/orgs/:orgId/bookings/:bookingId/reschedule': 'staff',
  'POST /api/orgs/:orgId/bookings/:bookingId/reschedule-request/accept': 'admin',
  'POST /api/orgs/:orgId/bookings/:bookingId/reschedule-request/refuse': 'admin',
  'GET /api/orgs/:orgId/bookings/:bookingId/documents/:documentId': 'staff',
  'GET /api/orgs/:orgId/bays': 'staff',
  'POST /api/orgs/:orgId/bays': 'admin',
  'GET /api/orgs/:orgId/bays/:bayId': 'staff',
  'PATCH /api/orgs/:orgId/bays/:bayId': 'admin',
  'DELETE /api/orgs/:orgId/bays/:bayId': 'admin',
  'POST /api/orgs/:orgId/bays/:bayId/deactivate': 'admin',
  'POST /api/orgs/:orgId/bays/:bayId/reactivate': 'admin',
  'GET /api/orgs/:orgId/blackouts': 'staff',
  'POST /api/orgs/:orgId/blackouts': 'admin',
  'PATCH /api/orgs/:orgId/blackouts/:blackoutId': 'admin',
  'DELETE /api/orgs/:orgId/blackouts/:blackoutId': 'admin',
  'GET /api/orgs/:orgId/blackout-options': 'staff',
  'GET /api/orgs/:orgId/blackout-series': 'staff',
  'POST /api/orgs/:orgId/blackout-series': 'admin',
  'GET /api/orgs/:orgId/blackout-series/:seriesId': 'staff',
  'PATCH /api/orgs/:orgId/blackout-series/:seriesId': 'admin',
  'DELETE /api/orgs/:orgId/blackout-series/:seriesId': 'admin',
  'GET /api/orgs/:orgId/dashboard': 'staff',
  'GET /api/orgs/:orgId/tenants': 'staff',
  'POST /api/orgs/:orgId/tenants': 'admin',
  'POST /api/orgs/:orgId/tenants/import': 'admin',
  'GET /api/orgs/:orgId/tenants/:tenantId': 'staff',
  'PATCH /api/orgs/:orgId/tenants/:tenantId': 'admin',
  'GET /api/orgs/:orgId/tenants/:tenantId/bookings': 'staff',
  'GET /api/orgs/:orgId/standing-bookings': 'admin',
  'POST /api/orgs/:orgId/standing-bookings': 'admin',
  'GET /api/orgs/:orgId/standing-bookings/conflicts': 'admin',
  'GET /api/orgs/:orgId/standing-bookings/:standingId': 'admin',
  'PUT /api/orgs/:orgId/standing-bookings/:standingId': 'admin',
  'POST /api/orgs/:orgId/standing-bookings/:standingId/cancel': 'admin',
  'POST /api/orgs/:orgId/standing-bookings/:standingId/approve': 'admin',
  'POST /api/orgs/:orgId/standing-bookings/:standingId/decline': 'admin',
  'POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/cancel': 'admin',
  'POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/move': 'admin',
  'POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/resolve': 'admin',
  'GET /api/orgs/:orgId/team': 'staff',
  'POST /api/orgs/:orgId/team/invitations': 'admin',
  'DELETE /api/orgs/:orgId/team/invitations/:invitationId': 'admin',
  'POST /api/orgs/:orgId/team/invitations/:invitationId/resend': 'admin',
  'PATCH /api/orgs/:orgId/team/members/:membershipId': 'admin',
  'POST /api/orgs/:orgId/team/members/:membershipId/deactivate': 'admin',
  'POST /api/orgs/:orgId/team/members/:membershipId/reactivate': 'admin',
  'GET /api/orgs/:orgId/tsr-connections': 'admin',
  'PUT /api/orgs/:orgId/tsr-connections': 'admin',
  'DELETE /api/orgs/:orgId/tsr-connections/:system': 'admin',
  'GET /api/orgs/:orgId/tsr-connections/:system/deliveries': 'admin',
  'POST /api/orgs/:orgId/tsr-connections/:system/deliveries/:deliveryId/redeliver': 'admin',
  'GET /api/orgs/:orgId/reports': 'staff',
  'GET /api/orgs/:orgId/reports/utilisation': 'staff',
  'GET /api/orgs/:orgId/reports/utilisation.csv': 'staff',
  'GET /api/orgs/:orgId/reports/punctuality': 'staff',
  'GET /api/orgs/:orgId/reports/punctuality.csv': 'staff',
  'GET /api/orgs/:orgId/reports/dwell': 'staff',
  'GET /api/orgs/:orgId/reports/dwell.csv': 'staff',
  'GET /api/orgs/:orgId/reports/no-shows': 'staff',
  'GET /api/orgs/:orgId/reports/no-shows.csv': 'staff',
  'GET /api/orgs/:orgId/reports/volume': 'staff',
  'GET /api/orgs/:orgId/reports/volume.csv': 'staff',
  'GET /api/orgs/:orgId/webhooks': 'admin',
  'POST /api/orgs/:orgId/webhooks': 'admin',
  'GET /api/orgs/:orgId/webhooks/:webhookId': 'admin',
  'PATCH /api/orgs/:orgId/webhooks/:webhookId': 'admin',
  'DELETE /api/orgs/:orgId/webhooks/:webhookId': 'admin',
  'POST /api/orgs/:orgId/webhooks/:webhookId/rotate-secret': 'admin',
  'POST /api/orgs/:orgId/webhooks/:webhookId/test': 'admin',
  'GET /api/orgs/:orgId/webhooks/:webhookId/deliveries': 'admin',
  'POST /api/orgs/:orgId/webhooks/:webhookId/deliveries/:deliveryId/redeliver': 'admin',
  'GET /api/sites/:siteId/gate/overview': 'gate',
  'GET /api/sites/:siteId/gate/queue': 'gate',
  'POST /api/sites/:siteId/gate/bookings/:bookingId/check-in': 'gate',
  'POST /api/sites/:siteId/gate/bookings/:bookingId/check-out': 'gate',
  'POST /api/sites/:siteId/gate/bookings/:bookingId/start': 'gate',
  'POST /api/sites/:siteId/gate/bookings/:bookingId/extend': 'gate_staff',
  'POST /api/sites/:siteId/gate/bookings/:bookingId/approve': 'gate_staff',
  'POST /api/sites/:siteId/gate/bookings/:bookingId/decline': 'gate_staff',
  'POST /api/sites/:siteId/gate/walk-ins': 'gate',
  'GET /api/sites/:siteId/gate/emergency': 'gate',
  'POST /api/sites/:siteId/gate/emergency': 'gate_staff',
  'DELETE /api/sites/:siteId/gate/emergency': 'gate_staff',
  'POST /api/sites/:siteId/plate-reads': 'gate',
  'GET /api/sites/:siteId/plate-reads': 'gate',
  'POST /api/sites/:siteId/plate-reads/photo': 'gate',
  'POST /api/sites/:siteId/plate-reads/:id/resolve': 'gate_staff',
  'POST /api/sites/:siteId/plate-reads/:id/ignore': 'gate_staff',
  'GET /api/sites/:siteId/kiosk/walk-in-requests': 'gate',
  'POST /api/sites/:siteId/kiosk/walk-in-requests/:requestId/accept': 'gate_staff',
  'POST /api/sites/:siteId/kiosk/walk-in-requests/:requestId/decline': 'gate_staff',
};

/** Query strings a read needs so that every role allowed to use it can (a dockmaster's reports name a site). */
const QUERY: Record<string, string> = {
  ...Object.fromEntries(
    Object.keys(POLICY)
      .filter((key) => key.startsWith('GET /api/orgs/:orgId/reports/'))
      .map((key) => [key, '?siteId=:siteId']),
  ),
  'GET /api/orgs/:orgId/schedule': '?siteId=:siteId&from=2026-11-23&to=2026-11-24',
};

type OrgRoleName = 'org_admin' | 'dockmaster' | 'security';
const ALLOWED: Record<Policy, readonly OrgRoleName[]> = {
  admin: ['org_admin'],
  staff: ['org_admin', 'dockmaster'],
  member: ['org_admin', 'dockmaster', 'security'],
  gate: ['org_admin', 'dockmaster', 'security'],
  gate_staff: ['org_admin', 'dockmaster'],
};

type Caller =
  | 'anonymous'
  | 'other_org_admin'
  | 'super_admin'
  | 'platform_owner'
  | 'platform_support'
  | 'org_admin'
  | 'dockmaster'
  | 'security'
  | 'support_as_org_admin'
  | 'super_admin_as_dockmaster';
/** Who changes nothing (phase one, checked byte for byte), then who may (phase two, least powerful first). */
const REFUSED_CALLERS: Caller[] = ['anonymous', 'other_org_admin', 'platform_support', 'super_admin', 'platform_owner'];
const MEMBER_CALLERS: Caller[] = ['security', 'dockmaster', 'super_admin_as_dockmaster', 'org_admin', 'support_as_org_admin'];
/** An impersonation session is the member's: it is expected to get what the member gets. */
const ACTS_AS: Partial<Record<Caller, OrgRoleName>> = {
  org_admin: 'org_admin',
  dockmaster: 'dockmaster',
  security: 'security',
  support_as_org_admin: 'org_admin',
  super_admin_as_dockmaster: 'dockmaster',
};

/** What a caller gets, as a class of answer. */
type Outcome = 'unauthenticated' | 'hidden' | 'read_only' | 'refused' | 'allowed';
type Route = { method: string; url: string; key: string; policy: Policy | undefined };

/** The scope's own "not found" (a resource's 404 further in, e.g. 'Bay not found', is an allowed request). */
const scopeNotFound = (url: string) => (url.startsWith('/api/sites/') ? 'Site not found' : 'Organization not found');

function classify(route: Route, status: number, body: { error?: { code?: string; message?: string } } | undefined): Outcome {
  if (status === 401) return 'unauthenticated';
  if (status === 404 && body?.error?.message === scopeNotFound(route.url)) return 'hidden';
  if (status === 403) return body?.error?.code === PLATFORM_READ_ONLY_CODE ? 'read_only' : 'refused';
  return 'allowed';
}

function expectedOutcome(route: Route, caller: Caller): Outcome {
  if (caller === 'anonymous') return 'unauthenticated';
  if (caller === 'other_org_admin') return 'hidden';
  if (caller === 'super_admin' || caller === 'platform_owner' || caller === 'platform_support') {
    return isReadMethod(route.method) ? 'allowed' : 'read_only';
  }
  const role = ACTS_AS[caller]!;
  if (ALLOWED[route.policy!].includes(role)) return 'allowed';
  // Security staff have no organization workspace: its routes do not exist for them.
  if (role === 'security' && route.url.startsWith('/api/orgs/')) return 'hidden';
  return 'refused';
}

/**
 * A role refused on a write may meet the body's validation first (400: the request is not
 * well-formed whoever sends it); it must never be let through. A read is refused with 403.
 */
function isConsistent(route: Route, expected: Outcome, actual: Outcome, status: number): boolean {
  if (status >= 500) return false;
  if (expected === actual) return true;
  return expected === 'refused' && !isReadMethod(route.method) && status === 400;
}

describe.each(databaseKinds)('tenant routes × callers on %s', (kind) => {
  let t: TestApp;
  let routes: Route[];
  const headers = {} as Record<Caller, Record<string, string>>;
  const emails = {} as Record<'support' | 'super' | 'admin' | 'dock' | 'dock2', string>;
  const ids = {} as Record<'orgId' | 'siteId' | 'site2Id' | 'bayId' | 'tenantId' | 'dock2Membership', string>;
  /** Ids that name nothing: the request reaches the handler, which answers its own 404. */
  const unknown = randomUUID();

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: string, url: string, callerHeaders: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({
      method: method as 'GET',
      url,
      headers: callerHeaders,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    let body: any;
    try {
      body = response.body ? response.json() : undefined;
    } catch {
      body = undefined; // CSV, images
    }
    return { status: response.statusCode, body };
  };
  const concreteUrl = (route: Route) =>
    (route.url + (QUERY[route.key] ?? '')).replace(/:([A-Za-z]+)/g, (_, name: string) => {
      if (name === 'orgId') return ids.orgId;
      if (name === 'siteId') return ids.siteId;
      if (name === 'bayId') return ids.bayId;
      if (name === 'tenantId') return ids.tenantId;
      if (name === 'system') return 'servicenow';
      return unknown;
    });
  const send = (route: Route, caller: Caller) =>
    call(route.method, concreteUrl(route), headers[caller], isReadMethod(route.method) || route.method === 'DELETE' ? undefined : {});

  /**
   * A fingerprint of the tenant's data: every table's rows, except what reading or signing in may
   * write (sessions and tokens, usage counters, error reports, the export's own audit entry).
   */
  const tenantDigest = async () => {
    const skip = new Set(['auth_sessions', 'refresh_tokens', 'auth_tokens', 'usage_counters', 'error_events', 'uptime_checks', 'sign_in_attempts', 'audit_log']);
    const tables = (
      await query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`)
    ).map((r) => r.name);
    const digest: Record<string, string> = {};
    for (const name of tables.filter((n) => !skip.has(n))) {
      const [row] = await query<{ digest: string }>(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`);
      digest[name] = row!.digest;
    }
    const [audit] = await query<{ n: number }>(`select count(*)::int as n from audit_log where action <> 'audit.exported'`);
    digest.audit_log = String(audit!.n);
    return digest;
  };

  /** Sends every route as each caller; answers what did not match the policy. */
  const sweep = async (callers: Caller[]) => {
    const mismatches: string[] = [];
    for (const caller of callers) {
      for (const route of routes) {
        const { status, body } = await send(route, caller);
        const expected = expectedOutcome(route, caller);
        const actual = classify(route, status, body);
        if (!isConsistent(route, expected, actual, status)) {
          mismatches.push(`${caller} ${route.key}: expected ${expected}, got ${status} ${JSON.stringify(body?.error ?? body)?.slice(0, 160)}`);
        }
        if (actual === 'read_only') expect(body.error.message).toBe(PLATFORM_READ_ONLY_MESSAGE);
      }
    }
    return mismatches;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    const acme = await createOrg(db, { name: 'Acme Tenancy' });
    const harbour = await createOrg(db, { name: 'Harbour Tenancy' });
    const site = await createSite(db, acme.id, { name: 'North Gate', timeZone: 'UTC' });
    const site2 = await createSite(db, acme.id, { name: 'South Gate', timeZone: 'UTC' });
    const bay = await createBay(db, site, { name: 'N-1' });
    await createBay(db, site2, { name: 'S-1' });
    const [tenant] = await db.db.insert(tenants).values({ orgId: acme.id, name: 'Fast Freight', email: 'ops@fast.example' }).returning();
    const user = async (email: string, values: Record<string, unknown> = {}) => createUser(db, { email, ...values });
    const admin = await user('admin@tenancy.test');
    const dock = await user('dock@tenancy.test');
    const dock2 = await user('dock2@tenancy.test');
    const guard = await user('guard@tenancy.test');
    const stranger = await user('admin@harbour-tenancy.test');
    await addMember(db, acme.id, admin.id, 'org_admin');
    await addMember(db, acme.id, dock.id, 'dockmaster', { employeeId: 'D-1' });
    const dock2Membership = await addMember(db, acme.id, dock2.id, 'dockmaster', { employeeId: 'D-2' });
    await addMember(db, acme.id, guard.id, 'security', { employeeId: 'S-1' });
    await addMember(db, harbour.id, stranger.id, 'org_admin');
    await user('super@tenancy.test', { platformRole: 'super_admin' });
    await user('owner@tenancy.test', { platformRole: 'platform_owner' });
    await user('support@tenancy.test', { platformRole: 'platform_support' });
    Object.assign(ids, { orgId: acme.id, siteId: site.id, site2Id: site2.id, bayId: bay.id, tenantId: tenant!.id, dock2Membership: dock2Membership.id });
    Object.assign(emails, { support: 'support@tenancy.test', super: 'super@tenancy.test', admin: admin.email, dock: dock.email, dock2: dock2.email });

    const signedIn = async (email: string) => bearer(await signIn(t.app, email));
    headers.anonymous = {};
    headers.other_org_admin = await signedIn(stranger.email);
    headers.super_admin = await signedIn('super@tenancy.test');
    headers.platform_owner = await signedIn('owner@tenancy.test');
    headers.platform_support = await signedIn('support@tenancy.test');
    headers.org_admin = await signedIn(admin.email);
    headers.dockmaster = await signedIn(dock.email);
    headers.security = await signedIn(guard.email);
    const actAs = async (platform: Record<string, string>, userId: string) => {
      const started = await call('POST', '/api/platform/impersonations', platform, { userId, orgId: acme.id, reason: REASON });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      return { authorization: `Bearer ${started.body.access_token as string}` };
    };
    headers.support_as_org_admin = await actAs(headers.platform_support, admin.id);
    headers.super_admin_as_dockmaster = await actAs(headers.super_admin, dock.id);

    routes = appRoutes(t.app)
      .filter((r) => r.method !== 'HEAD' && (r.url.startsWith('/api/orgs/:orgId') || r.url.startsWith('/api/sites/:siteId')))
      .map((r) => ({ ...r, key: `${r.method} ${r.url}`, policy: POLICY[`${r.method} ${r.url}`] }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds every route of a tenant in the app, each with a declared policy', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((r) => !r.policy).map((r) => r.key)).toEqual([]);
    // And no policy names a route that no longer exists.
    const served = new Set(routes.map((r) => r.key));
    expect(Object.keys(POLICY).filter((key) => !served.has(key))).toEqual([]);
  });

  it('anonymous callers, other tenants and platform staff change nothing: 401, 404, and reads only for platform staff (403 on every write)', async () => {
    const before = await tenantDigest();
    expect(await sweep(REFUSED_CALLERS)).toEqual([]);
    expect(await tenantDigest()).toEqual(before);
  });

  it('platform staff read the real data: the same answers the organization admin gets', async () => {
    for (const url of [
      `/api/orgs/${ids.orgId}/sites/${ids.siteId}`,
      `/api/orgs/${ids.orgId}/bays/${ids.bayId}`,
      `/api/orgs/${ids.orgId}/tenants/${ids.tenantId}`,
      `/api/orgs/${ids.orgId}/team`,
      `/api/sites/${ids.siteId}/gate/overview`,
    ]) {
      const asAdmin = await call('GET', url, headers.org_admin);
      expect(asAdmin.status, url).toBe(200);
      for (const caller of ['super_admin', 'platform_support', 'platform_owner'] as const) {
        const asPlatform = await call('GET', url, headers[caller]);
        expect(asPlatform.status, `${caller} ${url}`).toBe(200);
        if (url.endsWith('/team')) {
          // The team screen offers no changes to platform staff.
          expect(asPlatform.body.canManage, caller).toBe(false);
          expect(asAdmin.body.canManage).toBe(true);
          expect(asPlatform.body.members).toEqual(asAdmin.body.members.map((m: { isYou: boolean }) => ({ ...m, isYou: false })));
        } else {
          expect(asPlatform.body, `${caller} ${url}`).toEqual(asAdmin.body);
        }
      }
    }
  });

  it("refuses platform staff the writes that used to pass — an API key, a webhook, a promotion, a site's deactivation, a gate stop — and lets them through an impersonation, audited with both users", async () => {
    const org = `/api/orgs/${ids.orgId}`;
    const writes = [
      { method: 'POST', url: `${org}/api-keys`, body: { name: 'Support key', tenantId: ids.tenantId, scopes: ['availability:read'] }, status: 201, action: 'api_key.created' },
      { method: 'POST', url: `${org}/webhooks`, body: { url: 'https://93.184.215.14/hooks', events: ['booking.created'] }, status: 201, action: 'webhook.created' },
      { method: 'PATCH', url: `${org}/team/members/${ids.dock2Membership}`, body: { role: 'org_admin' }, status: 200, action: 'member.updated' },
      { method: 'POST', url: `${org}/sites/${ids.site2Id}/deactivate`, body: {}, status: 200, action: 'site.deactivated' },
      { method: 'POST', url: `/api/sites/${ids.siteId}/gate/emergency`, body: { reason: 'Fire alarm in the warehouse' }, status: 200, action: null },
    ];
    const before = await tenantDigest();
    for (const caller of ['platform_support', 'super_admin', 'platform_owner'] as const) {
      for (const write of writes) {
        const res = await call(write.method, write.url, headers[caller], write.body);
        expect(res.status, `${caller} ${write.method} ${write.url}`).toBe(403);
        expect(res.body.error).toMatchObject({ code: PLATFORM_READ_ONLY_CODE, message: PLATFORM_READ_ONLY_MESSAGE });
      }
    }
    expect(await tenantDigest()).toEqual(before);

    // The same, acting as the organization's admin: done, and each entry names the admin and the support user.
    for (const write of writes) {
      const res = await call(write.method, write.url, headers.support_as_org_admin, write.body);
      expect(res.status, `${write.method} ${write.url}: ${JSON.stringify(res.body)}`).toBe(write.status);
    }
    const [promoted] = await query<{ role: string }>(`select role from org_memberships where id = $1`, [ids.dock2Membership]);
    expect(promoted!.role).toBe('org_admin');
    const entries = await query<{ action: string; actor_email: string; impersonator_email: string | null }>(
      `select action, actor_email, impersonator_email from audit_log where org_id = $1 and action = any($2)`,
      [ids.orgId, writes.map((w) => w.action).filter(Boolean)],
    );
    expect(entries).toHaveLength(4);
    for (const entry of entries) expect(entry).toMatchObject({ actor_email: emails.admin, impersonator_email: emails.support });
  });

  it('the audit lists name who really acted: the organization’s trail, the platform’s list and the organization page (not only in the details)', async () => {
    const lists = [
      { url: `/api/orgs/${ids.orgId}/audit?action=api_key.created`, as: headers.org_admin },
      { url: `/api/platform/audit?orgId=${ids.orgId}&action=api_key.created`, as: headers.super_admin },
      // The actor filter finds what the support user did while acting as the admin.
      { url: `/api/platform/audit?orgId=${ids.orgId}&action=api_key.created&actor=${encodeURIComponent(emails.support)}`, as: headers.super_admin },
    ];
    for (const list of lists) {
      const res = await call('GET', list.url, list.as);
      expect(res.status, list.url).toBe(200);
      expect(res.body.items, list.url).toHaveLength(1);
      expect(res.body.items[0], list.url).toMatchObject({ actorEmail: emails.admin, impersonatorEmail: emails.support, impersonatorId: expect.any(String) });
    }
    // Entries nobody impersonated say so.
    const plain = await call('GET', `/api/orgs/${ids.orgId}/audit?action=impersonation.start`, headers.org_admin);
    expect(plain.body.items.length).toBeGreaterThan(0);
    for (const item of plain.body.items) expect(item).toMatchObject({ impersonatorId: null, impersonatorEmail: null });

    const page = await call('GET', `/api/platform/organizations/${ids.orgId}/audit?pageSize=100`, headers.super_admin);
    const created = page.body.items.find((e: { action: string }) => e.action === 'api_key.created');
    expect(created).toMatchObject({ actorEmail: emails.admin, impersonatorEmail: emails.support });
  });

  it("the organization's members and impersonation sessions get what their role's policy says on every route", async () => {
    expect(await sweep(MEMBER_CALLERS)).toEqual([]);
  });
});
