import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, AUDIT_CSV_MAX_ROWS } from '../../../domain/audit-log';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';

// The audit log read by platform administrators (/api/platform/audit…) and by an organization's
// admins (/api/orgs/:orgId/audit…): newest first, 20 a page, the organization's name, every filter,
// the CSV (same filters, capped, cells escaped), who may read it — and the table itself refusing
// any change (the 0007 trigger), on both databases.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('audit log API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourId: string;
  /** An organization of this test alone, with entries at known times. */
  let yardId: string;
  let adminId: string;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  /** A fresh session for the user (no sign-in, so no 'auth.signed_in' entry). */
  const as = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`, [user!.id]);
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const get = async (url: string, who?: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: who ? await as(who) : {} });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body, headers: response.headers };
  };
  const entry = async (values: {
    orgId?: string | null;
    at: string;
    action?: string;
    resourceType?: string;
    actorEmail?: string | null;
    actorId?: string | null;
    details?: Record<string, unknown>;
  }) => {
    seq += 1;
    const [row] = await query<{ id: string }>(
      `insert into audit_log (actor_id, actor_email, actor_role, action, resource_type, resource_id, org_id, details, created_at)
       values ($1, $2, 'org_admin', $3, $4, $5, $6, $7, $8) returning id`,
      [
        values.actorId ?? null,
        values.actorEmail === undefined ? 'someone@yard.test' : values.actorEmail,
        values.action ?? 'bay.updated',
        values.resourceType ?? 'bay',
        `res-${seq}`,
        values.orgId === undefined ? yardId : values.orgId,
        JSON.stringify(values.details ?? { seq }),
        values.at,
      ],
    );
    return row!.id;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    harbourId = (await query<{ id: string }>(`select id from organizations where slug <> 'acme-logistics' order by name limit 1`))[0]!.id;
    yardId = (await query<{ id: string }>(`insert into organizations (name, slug) values ('Audit Yard', 'audit-yard') returning id`))[0]!.id;
    adminId = (await query<{ id: string }>(`select id from users where email = 'admin@acme.test'`))[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/platform/audit', () => {
    it('lists every entry newest first, 20 a page by default, with the organization’s name and the total', async () => {
      const res = await get('/api/platform/audit', 'super@baywise.test');
      expect(res.status).toBe(200);
      const [{ n }] = (await query<{ n: number }>(`select count(*)::int as n from audit_log`)) as [{ n: number }];
      expect(res.body.total).toBe(n);
      expect(res.body.pageSize).toBe(20);
      expect(res.body.page).toBe(1);
      expect(res.body.items).toHaveLength(Math.min(20, n));
      const times = res.body.items.map((i: { createdAt: string }) => i.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
      const [newest] = await query<{ id: string }>(`select id from audit_log order by created_at desc, id desc limit 1`);
      expect(res.body.items[0].id).toBe(newest!.id);
      const acme = res.body.items.find((i: { orgId: string | null }) => i.orgId === acmeId);
      if (acme) expect(acme.orgName).toBe('Acme Logistics');
    });

    it('filters by organization, actor (e-mail part or id), action, resource type and days in a time zone', async () => {
      // Sydney is UTC+11 in November: 22 Nov 13:00 UTC is already 23 Nov there.
      const early = await entry({ at: '2026-11-20T10:00:00Z', action: 'bay.created', actorEmail: 'Alice@Yard.test' });
      const lateUtc = await entry({ at: '2026-11-22T13:00:00Z', action: 'bay.updated', actorEmail: 'bob@yard.test' });
      const byId = await entry({ at: '2026-11-21T09:00:00Z', action: 'site.updated', resourceType: 'site', actorId: adminId, actorEmail: 'admin@acme.test' });
      const ids = async (qs: string) => {
        const res = await get(`/api/platform/audit?orgId=${yardId}&pageSize=100&${qs}`, 'super@baywise.test');
        expect(res.status).toBe(200);
        return res.body.items.map((i: { id: string }) => i.id);
      };
      expect(await ids('')).toEqual([lateUtc, byId, early]);
      const first = (await get(`/api/platform/audit?orgId=${yardId}`, 'super@baywise.test')).body.items[0];
      expect(first).toMatchObject({ orgId: yardId, orgName: 'Audit Yard', action: 'bay.updated', resourceType: 'bay', actorEmail: 'bob@yard.test' });
      expect(await ids('actor=ALICE')).toEqual([early]);
      expect(await ids(`actor=${adminId}`)).toEqual([byId]);
      expect(await ids('actor=100%25')).toEqual([]);
      expect(await ids('action=bay.created')).toEqual([early]);
      expect(await ids('action=bay')).toEqual([]);
      expect(await ids('resourceType=site')).toEqual([byId]);
      expect(await ids('from=2026-11-21&to=2026-11-22')).toEqual([lateUtc, byId]);
      expect(await ids('from=2026-11-21&to=2026-11-22&tz=Australia/Sydney')).toEqual([byId]);
      expect(await ids('from=2026-11-23&tz=Australia/Sydney')).toEqual([lateUtc]);
      expect(await ids('to=2026-11-20')).toEqual([early]);
    });

    it('pages: the second page continues the first, a page past the end is empty with the total', async () => {
      const pageOrg = (await query<{ id: string }>(`insert into organizations (name, slug) values ('Paged Yard', 'paged-yard') returning id`))[0]!.id;
      for (let i = 0; i < 23; i++) await entry({ orgId: pageOrg, at: new Date(Date.parse('2026-11-01T00:00:00Z') + i * 60_000).toISOString() });
      const one = await get(`/api/platform/audit?orgId=${pageOrg}`, 'super@baywise.test');
      const two = await get(`/api/platform/audit?orgId=${pageOrg}&page=2`, 'super@baywise.test');
      const past = await get(`/api/platform/audit?orgId=${pageOrg}&page=5`, 'super@baywise.test');
      expect(one.body).toMatchObject({ total: 23, page: 1, pageSize: 20 });
      expect(one.body.items).toHaveLength(20);
      expect(two.body.items).toHaveLength(3);
      expect(two.body.items[2].createdAt).toBe('2026-11-01T00:00:00.000Z');
      expect(new Set([...one.body.items, ...two.body.items].map((i: { id: string }) => i.id)).size).toBe(23);
      expect(past.body).toMatchObject({ total: 23, items: [] });
      const fifty = await get(`/api/platform/audit?orgId=${pageOrg}&pageSize=50`, 'super@baywise.test');
      expect(fifty.body.items).toHaveLength(23);
    });

    it('refuses bad filters with a clear 400', async () => {
      const cases: [string, string][] = [
        ['orgId=nope', 'organization id'],
        ['from=2026-02-30', 'YYYY-MM-DD'],
        ['from=2026-11-22&to=2026-11-21', 'on or before'],
        ['tz=Mars/Olympus', 'time zone'],
        ['pageSize=30', 'Page size'],
        ['page=0', 'Page'],
        [`action=${'x'.repeat(101)}`, 'at most 100'],
        ['actor=a%00b', 'not allowed'],
        ['resourceType=a%0Ab', 'not allowed'],
      ];
      for (const [qs, message] of cases) {
        const res = await get(`/api/platform/audit?${qs}`, 'super@baywise.test');
        expect(res.status, qs).toBe(400);
        expect(res.body.error.message, qs).toContain(message);
      }
    });

    it('is for platform administrators only', async () => {
      expect((await get('/api/platform/audit')).status).toBe(401);
      for (const email of ['admin@acme.test', 'dock@acme.test', 'security@acme.test']) {
        for (const path of ['/api/platform/audit', '/api/platform/audit/filters', '/api/platform/audit/csv']) {
          const res = await get(path, email);
          expect(res.status, `${email} ${path}`).toBe(403);
        }
      }
      await query(`update users set platform_role = 'platform_support' where email = 'admin@harbour.test'`);
      try {
        expect((await get('/api/platform/audit', 'admin@harbour.test')).status).toBe(200);
      } finally {
        await query(`update users set platform_role = null where email = 'admin@harbour.test'`);
      }
    });

    it('offers every organization and the actions and resource types recorded', async () => {
      const res = await get('/api/platform/audit/filters', 'super@baywise.test');
      expect(res.status).toBe(200);
      expect(res.body.organizations).toEqual(expect.arrayContaining([{ id: acmeId, name: 'Acme Logistics' }, { id: yardId, name: 'Audit Yard' }]));
      expect(res.body.actions).toEqual(expect.arrayContaining(['bay.created', 'site.updated']));
      expect(res.body.actions).toEqual([...res.body.actions].sort());
      expect(res.body.resourceTypes).toEqual(expect.arrayContaining(['bay', 'site']));
    });
  });

  describe('CSV', () => {
    it('downloads the filtered entries with a header, every formula cell neutralised and quotes escaped, and records the export', async () => {
      const csvOrg = (await query<{ id: string }>(`insert into organizations (name, slug) values ('=HYPERLINK("x"), Ltd', 'csv-yard') returning id`))[0]!.id;
      await entry({ orgId: csvOrg, at: '2026-11-10T00:00:00Z', action: 'tenant.created', actorEmail: '@evil.test', details: { name: '+SUM(A1)', note: 'line one\nline "two"' } });
      await entry({ orgId: csvOrg, at: '2026-11-11T00:00:00Z', action: '-cmd', actorEmail: 'plain@yard.test', details: {} });
      const res = await get(`/api/platform/audit/csv?orgId=${csvOrg}`, 'super@baywise.test');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toBe('attachment; filename="baywise-audit-2026-11-23.csv"');
      expect(res.headers['x-total-count']).toBe('2');
      const rows = parse(res.body as string, { relax_quotes: false }) as string[][];
      expect(rows[0]).toEqual([...AUDIT_CSV_COLUMNS]);
      expect(rows).toHaveLength(3);
      const [newest, oldest] = [rows[1]!, rows[2]!];
      const col = (row: string[], name: (typeof AUDIT_CSV_COLUMNS)[number]) => row[AUDIT_CSV_COLUMNS.indexOf(name)];
      expect(col(newest, 'action')).toBe("'-cmd");
      expect(col(newest, 'details')).toBe('');
      expect(col(oldest, 'created_at')).toBe('2026-11-10T00:00:00.000Z');
      expect(col(oldest, 'organization')).toBe(`'=HYPERLINK("x"), Ltd`);
      expect(col(oldest, 'organization_id')).toBe(csvOrg);
      expect(col(oldest, 'actor_email')).toBe("'@evil.test");
      expect(JSON.parse(col(oldest, 'details')!)).toEqual({ name: '+SUM(A1)', note: 'line one\nline "two"' });
      // The raw text: the quote doubled inside a quoted cell.
      expect(res.body).toContain(`"'=HYPERLINK(""x""), Ltd"`);
      const [exported] = await query<{ actor_email: string; actor_role: string; org_id: string; details: Record<string, unknown> }>(
        `select actor_email, actor_role, org_id, details from audit_log where action = 'audit.exported' and org_id = $1`,
        [csvOrg],
      );
      expect(exported).toMatchObject({ actor_email: 'super@baywise.test', actor_role: 'super_admin', org_id: csvOrg, details: { rows: 2, total: 2, filters: { orgId: csvOrg } } });
    });

    it(`holds at most the newest ${AUDIT_CSV_MAX_ROWS} entries and says how many match`, async () => {
      const bigOrg = (await query<{ id: string }>(`insert into organizations (name, slug) values ('Big Yard', 'big-yard') returning id`))[0]!.id;
      await query(
        `insert into audit_log (actor_role, action, resource_type, org_id, created_at)
         select 'system', 'booking.no_show', 'booking', $1, timestamptz '2026-10-01T00:00:00Z' + g * interval '1 second'
           from generate_series(1, $2::int) g`,
        [bigOrg, AUDIT_CSV_MAX_ROWS + 5],
      );
      const res = await get(`/api/platform/audit/csv?orgId=${bigOrg}`, 'super@baywise.test');
      expect(res.status).toBe(200);
      expect(res.headers['x-total-count']).toBe(String(AUDIT_CSV_MAX_ROWS + 5));
      expect(res.headers['x-row-count']).toBe(String(AUDIT_CSV_MAX_ROWS));
      const rows = parse(res.body as string) as string[][];
      expect(rows).toHaveLength(AUDIT_CSV_MAX_ROWS + 1);
      const newest = new Date(Date.parse('2026-10-01T00:00:00Z') + (AUDIT_CSV_MAX_ROWS + 5) * 1000).toISOString();
      expect(rows[1]![0]).toBe(newest);
    });
  });

  describe('GET /api/orgs/:orgId/audit', () => {
    it('shows an organization admin their own organization’s entries only', async () => {
      const mine = await entry({ orgId: acmeId, at: '2026-11-23T06:00:00Z', action: 'blackout.created', resourceType: 'blackout', actorEmail: 'admin@acme.test' });
      await entry({ orgId: harbourId, at: '2026-11-23T06:30:00Z', action: 'blackout.created', resourceType: 'blackout' });
      const res = await get(`/api/orgs/${acmeId}/audit?pageSize=100`, 'admin@acme.test');
      expect(res.status).toBe(200);
      const [{ n }] = (await query<{ n: number }>(`select count(*)::int as n from audit_log where org_id = $1`, [acmeId])) as [{ n: number }];
      expect(res.body.total).toBe(n);
      expect(res.body.items.every((i: { orgId: string }) => i.orgId === acmeId)).toBe(true);
      expect(res.body.items[0]).toMatchObject({ id: mine, orgName: 'Acme Logistics' });
      const filtered = await get(`/api/orgs/${acmeId}/audit?action=blackout.created&resourceType=blackout&actor=admin@acme`, 'admin@acme.test');
      expect(filtered.body.items[0].id).toBe(mine);
      for (const item of filtered.body.items) {
        expect(item).toMatchObject({ orgId: acmeId, action: 'blackout.created', resourceType: 'blackout', actorEmail: 'admin@acme.test' });
      }
      // The organization filter is the path's, never the query's.
      const sneaky = await get(`/api/orgs/${acmeId}/audit?orgId=${harbourId}&pageSize=100`, 'admin@acme.test');
      expect(sneaky.status).toBe(200);
      expect(sneaky.body.items.every((i: { orgId: string }) => i.orgId === acmeId)).toBe(true);
      const options = await get(`/api/orgs/${acmeId}/audit/filters`, 'admin@acme.test');
      expect(options.body.organizations).toEqual([]);
      expect(options.body.actions).toContain('blackout.created');
    });

    it('is refused to dockmasters (403), security staff and other organizations (404) and the anonymous (401)', async () => {
      for (const path of ['/audit', '/audit/filters', '/audit/csv']) {
        expect((await get(`/api/orgs/${acmeId}${path}`, 'dock@acme.test')).status, path).toBe(403);
        expect((await get(`/api/orgs/${acmeId}${path}`, 'security@acme.test')).status, path).toBe(404);
        expect((await get(`/api/orgs/${acmeId}${path}`, 'admin@harbour.test')).status, path).toBe(404);
        expect((await get(`/api/orgs/${acmeId}${path}`)).status, path).toBe(401);
        expect((await get(`/api/orgs/not-an-id${path}`, 'admin@acme.test')).status, path).toBe(404);
      }
      const dock = await get(`/api/orgs/${acmeId}/audit`, 'dock@acme.test');
      expect(dock.body.error.message).toBe('Only organization admins can make this change');
      // Platform administrators read any organization's trail.
      expect((await get(`/api/orgs/${harbourId}/audit`, 'super@baywise.test')).status).toBe(200);
    });

    it('downloads the organization’s trail as CSV', async () => {
      const res = await get(`/api/orgs/${acmeId}/audit/csv?action=blackout.created`, 'admin@acme.test');
      expect(res.status).toBe(200);
      const rows = parse(res.body as string) as string[][];
      expect(rows[0]).toEqual([...AUDIT_CSV_COLUMNS]);
      expect(rows.slice(1).every((r) => r[2] === acmeId && r[6] === 'blackout.created')).toBe(true);
      expect(rows.length).toBeGreaterThan(1);
      const [exported] = await query<{ actor_email: string; actor_role: string }>(
        `select actor_email, actor_role from audit_log where action = 'audit.exported' and org_id = $1`,
        [acmeId],
      );
      expect(exported).toEqual({ actor_email: 'admin@acme.test', actor_role: 'org_admin' });
    });
  });

  // After the organization's own tests: the exports below add entries to its trail.
  describe('date ranges', () => {
    it('reads a range to the last day there is (to=9999-12-31) as open-ended, on every list and CSV, in any time zone', async () => {
      const id = await entry({ orgId: acmeId, at: '2026-11-20T13:00:00Z', action: 'bay.renamed_far', resourceType: 'bay' });
      for (const tz of ['UTC', 'Pacific/Kiritimati', 'Etc/GMT%2B12']) {
        const qs = `from=2026-11-20&to=9999-12-31&tz=${tz}&action=bay.renamed_far`;
        const platform = await get(`/api/platform/audit?${qs}`, 'super@baywise.test');
        expect(platform.status, `${tz}: ${JSON.stringify(platform.body)}`).toBe(200);
        expect(platform.body.items.map((i: { id: string }) => i.id)).toContain(id);
        const org = await get(`/api/orgs/${acmeId}/audit?${qs}`, 'admin@acme.test');
        expect(org.status, tz).toBe(200);
        expect(org.body.items.map((i: { id: string }) => i.id)).toContain(id);
        for (const csv of [`/api/platform/audit/csv?${qs}`, `/api/orgs/${acmeId}/audit/csv?${qs}`]) {
          const res = await get(csv, csv.startsWith('/api/platform') ? 'super@baywise.test' : 'admin@acme.test');
          expect(res.status, csv).toBe(200);
          expect(res.body as string).toContain('bay.renamed_far');
        }
      }
      // A start on that day is an empty range, not an error.
      expect((await get('/api/platform/audit?from=9999-12-31&to=9999-12-31&tz=Pacific/Kiritimati', 'super@baywise.test')).status).toBe(200);
    });
  });

  describe('append-only', () => {
    it('refuses UPDATE, DELETE and TRUNCATE on audit_log, naming the table', async () => {
      const id = await entry({ at: '2026-11-15T00:00:00Z', action: 'bay.deleted' });
      const refused = async (statement: string, params?: unknown[]) => {
        const error = await query(statement, params).then(
          () => null,
          (e: unknown) => e as { message: string; code?: string },
        );
        expect(error, statement).not.toBeNull();
        expect(error!.message).toMatch(/audit_log is append-only: (UPDATE|DELETE|TRUNCATE) is not allowed/);
      };
      await refused(`update audit_log set action = 'bay.created' where id = $1`, [id]);
      await refused(`update audit_log set org_id = null where id = $1`, [id]);
      await refused(`delete from audit_log where id = $1`, [id]);
      await refused(`delete from audit_log`);
      await refused(`truncate audit_log`);
      const [row] = await query<{ action: string; org_id: string }>(`select action, org_id from audit_log where id = $1`, [id]);
      expect(row).toEqual({ action: 'bay.deleted', org_id: yardId });
      // An update that matches no row changes nothing and is not an error.
      await query(`update audit_log set action = 'x' where false`);
    });

    it('keeps an organization’s entries, with its id, when the organization is deleted', async () => {
      const gone = (await query<{ id: string }>(`insert into organizations (name, slug) values ('Gone Yard', 'gone-yard') returning id`))[0]!.id;
      const id = await entry({ orgId: gone, at: '2026-11-16T00:00:00Z', action: 'site.created', resourceType: 'site' });
      await query(`delete from organizations where id = $1`, [gone]);
      const [row] = await query<{ org_id: string }>(`select org_id from audit_log where id = $1`, [id]);
      expect(row!.org_id).toBe(gone);
      const res = await get(`/api/platform/audit?orgId=${gone}`, 'super@baywise.test');
      expect(res.body.items).toEqual([expect.objectContaining({ id, orgId: gone, orgName: null })]);
    });
  });
});
