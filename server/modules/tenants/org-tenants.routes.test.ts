import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeEvent } from '../../../domain/realtime';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// The tenants API: list with search, status filter and booking counts; one tenant with its
// policy, figures and bookings; create and change (block, unblock, policy); CSV import, all or
// nothing — and nothing of it reachable from outside the organization.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('tenants API on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let yard: { id: string; orgId: string };
  let annex: { id: string; orgId: string };
  let bayId: string;
  let otherSiteId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let outsider: Record<string, string>;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers, payload: payload as never });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  const url = (path: string, org = orgId) => `/api/orgs/${org}${path}`;
  const importCsv = (csv: string, headers = admin) =>
    t.app.inject({ method: 'POST', url: url('/tenants/import'), headers: { ...headers, 'content-type': 'text/csv' }, payload: csv });
  const tenantCount = async () => Number((await query<{ n: number }>('select count(*)::int as n from tenants where org_id = $1', [orgId]))[0]!.n);
  const create = async (body: Record<string, unknown>) => {
    const res = await call('POST', url('/tenants'), admin, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string } & Record<string, unknown>;
  };

  /** A booking of the tenant on the yard, starting `hours` from now, in `status`, checked in `checkInMin` after its start. */
  const booking = async (tenantId: string | null, status: string, hours: number, checkInMin: number | null = null) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + hours * 3_600_000);
    const end = new Date(start.getTime() + 3_600_000);
    const checkedIn = checkInMin === null ? null : new Date(start.getTime() + checkInMin * 60_000).toISOString();
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tenant_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, checked_in_at)
       values ($1, $2, $3, $4, $5, 'Figures Co', 'ops@figures.example', $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'admin', $10) returning id`,
      [orgId, yard.id, bayId, tenantId, `TSR-FIG-${seq}`, start.toISOString(), end.toISOString(), `FIG${seq}`, status, checkedIn],
    );
    return row!.id;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    const org = await createOrg(db, { name: 'Tenant Org' });
    orgId = org.id;
    yard = await createSite(db, orgId, { name: 'Main Yard', timeZone: 'Australia/Sydney' });
    annex = await createSite(db, orgId, { name: 'Annex', timeZone: 'Australia/Sydney' });
    bayId = (await createBay(db, yard, { name: 'M-1' })).id;
    const other = await createOrg(db, { name: 'Other Org' });
    otherOrgId = other.id;
    otherSiteId = (await createSite(db, otherOrgId, { name: 'Elsewhere' })).id;
    for (const [email, org, role] of [
      ['admin@tenants.example', orgId, 'org_admin'],
      ['dock@tenants.example', orgId, 'dockmaster'],
      ['admin@other.example', otherOrgId, 'org_admin'],
    ] as const) {
      const user = await createUser(db, { email });
      await addMember(db, org, user.id, role);
    }
    admin = bearer(await signIn(t.app, 'admin@tenants.example'));
    dock = bearer(await signIn(t.app, 'dock@tenants.example'));
    outsider = bearer(await signIn(t.app, 'admin@other.example'));
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await query('delete from bookings');
    await query('delete from tenants');
  });

  describe('create and change', () => {
    it('turns the standing-request policy on and off (off by default)', async () => {
      const body = await create({ name: 'Standing Policy Freight' });
      expect(body.standingRequestsAllowed).toBe(false);
      const on = await call('PATCH', url(`/tenants/${body.id}`), admin, { standingRequestsAllowed: true });
      expect(on.status).toBe(200);
      expect(on.body.standingRequestsAllowed).toBe(true);
      const [row] = await query<{ standing_requests_allowed: boolean }>('select standing_requests_allowed from tenants where id = $1', [body.id]);
      expect(row!.standing_requests_allowed).toBe(true);
      expect((await call('PATCH', url(`/tenants/${body.id}`), admin, { standingRequestsAllowed: 'yes' })).status).toBe(400);
    });

    it('creates a tenant with normalised contacts and domains, audited and published live', async () => {
      const events: RealtimeEvent[] = [];
      const stop = t.ctx.realtime!.subscribe!({ orgId, siteId: null }, (event) => events.push(event));
      const body = await create({
        name: '  Coastal Freight Co ',
        contactEmails: ['Mia@CoastalFreight.test', 'mia@coastalfreight.test', 'ops@coastal.test'],
        phone: '',
        emailDomains: ['@CoastalFreight.TEST'],
        autoApprove: true,
        allowedSiteIds: [yard.id],
        maxBookingsPerDay: 4,
      });
      expect(body).toMatchObject({
        name: 'Coastal Freight Co',
        contactEmails: ['mia@coastalfreight.test', 'ops@coastal.test'],
        phone: null,
        emailDomains: ['coastalfreight.test'],
        status: 'active',
        blockedReason: null,
        autoApprove: true,
        allowedSiteIds: [yard.id],
        allowedSites: [{ id: yard.id, name: 'Main Yard' }],
        maxBookingsPerDay: 4,
        figures: { bookings: 0, arrivals: 0, onTimeArrivals: 0, onTimeRate: null, noShows: 0, cancellations: 0, upcoming: 0 },
      });
      const [audit] = await query<{ action: string; actor_email: string; details: Record<string, unknown> }>(
        `select action, actor_email, details from audit_log where resource_id = $1`,
        [body.id],
      );
      expect(audit).toMatchObject({ action: 'tenant.created', actor_email: 'admin@tenants.example', details: { name: 'Coastal Freight Co', auto_approve: true } });
      await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ entity: 'tenant', action: 'created', id: body.id, orgId })));
      stop();
    });

    it('refuses a second tenant of the same name (case-blind), a claimed domain or e-mail, and another organization’s site', async () => {
      await create({ name: 'Metro Haulage', emailDomains: ['metro.test'], contactEmails: ['bookings@metro.test'] });
      const sameName = await call('POST', url('/tenants'), admin, { name: 'METRO haulage' });
      expect(sameName.status).toBe(409);
      expect(sameName.body.error).toMatchObject({ code: 'tenant_name_taken', details: [{ path: 'name', message: 'A tenant named "METRO haulage" already exists' }] });
      const claimed = await call('POST', url('/tenants'), admin, { name: 'Metro Two', emailDomains: ['Metro.test'], contactEmails: ['bookings@metro.test'] });
      expect(claimed.status).toBe(409);
      expect(claimed.body.error.details).toEqual([
        { path: 'emailDomains', message: 'metro.test already links requests to Metro Haulage' },
        { path: 'contactEmails', message: 'bookings@metro.test is already a contact of Metro Haulage' },
      ]);
      const foreignSite = await call('POST', url('/tenants'), admin, { name: 'Metro Three', allowedSiteIds: [otherSiteId] });
      expect(foreignSite.status).toBe(400);
      expect(foreignSite.body.error.details).toEqual([{ path: 'allowedSiteIds', message: 'Choose sites of this organization' }]);
      expect(await tenantCount()).toBe(1);
    });

    it('answers field messages for invalid input, the same as the form shows', async () => {
      const res = await call('POST', url('/tenants'), admin, {
        name: ' ',
        contactEmails: ['not-an-email'],
        emailDomains: ['gmail.com'],
        maxBookingsPerDay: 0,
        allowedSiteIds: [],
      });
      expect(res.status).toBe(400);
      const paths = (res.body.error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]);
      expect(paths).toEqual(
        expect.arrayContaining([
          ['name', 'Company name is required'],
          ['contactEmails.0', 'not-an-email is not a valid e-mail address'],
          ['emailDomains.0', "gmail.com is a public mail provider: list the tenant's addresses under contact e-mails instead"],
          ['maxBookingsPerDay', 'At least 1 booking a day (or no limit)'],
          ['allowedSiteIds', 'Choose at least one site, or allow every site'],
        ]),
      );
    });

    it('blocks with a reason and unblocks, each audited; changes the policy; leaves what was not sent', async () => {
      const { id } = await create({ name: 'Redline Couriers', phone: '+61 2 9555 1605', notes: 'Night deliveries' });
      const blocked = await call('PATCH', url(`/tenants/${id}`), admin, { status: 'blocked', blockedReason: 'Unpaid invoices' });
      expect(blocked.status).toBe(200);
      expect(blocked.body).toMatchObject({ status: 'blocked', blockedReason: 'Unpaid invoices', phone: '+61 2 9555 1605', notes: 'Night deliveries' });
      const unblocked = await call('PATCH', url(`/tenants/${id}`), admin, { status: 'active' });
      expect(unblocked.body).toMatchObject({ status: 'active', blockedReason: null });
      const policy = await call('PATCH', url(`/tenants/${id}`), admin, {
        autoApprove: true,
        allowedSiteIds: [annex.id, yard.id],
        maxBookingsPerDay: 3,
        emailDomains: ['redline.test'],
        phone: null,
      });
      expect(policy.body).toMatchObject({
        autoApprove: true,
        allowedSites: [{ id: annex.id, name: 'Annex' }, { id: yard.id, name: 'Main Yard' }],
        maxBookingsPerDay: 3,
        emailDomains: ['redline.test'],
        phone: null,
        name: 'Redline Couriers',
      });
      const back = await call('PATCH', url(`/tenants/${id}`), admin, { allowedSiteIds: null, maxBookingsPerDay: null });
      expect(back.body).toMatchObject({ allowedSiteIds: null, allowedSites: null, maxBookingsPerDay: null });
      const audit = await query<{ action: string; details: Record<string, unknown> }>(`select action, details from audit_log where resource_id = $1 order by created_at, id`, [id]);
      expect(audit.map((a) => a.action)).toEqual(['tenant.created', 'tenant.blocked', 'tenant.unblocked', 'tenant.updated', 'tenant.updated']);
      expect(audit[1]!.details).toMatchObject({ reason: 'Unpaid invoices', changes: { status: { from: 'active', to: 'blocked' } } });
      const rename = await call('PATCH', url(`/tenants/${id}`), admin, { name: 'Redline Couriers Pty' });
      expect(rename.body.name).toBe('Redline Couriers Pty');
    });
  });

  describe('read', () => {
    it('lists by name with booking counts, searches name, e-mail or domain, filters by status, pages by 25', async () => {
      const alpha = await create({ name: 'Alpha Freight', emailDomains: ['alpha.test'] });
      await create({ name: 'beta Transport', contactEmails: ['desk@beta.test'], status: 'blocked', blockedReason: 'Safety' });
      for (let i = 0; i < 25; i++) await query(`insert into tenants (org_id, name) values ($1, $2)`, [orgId, `Zulu ${String(i).padStart(2, '0')}`]);
      await booking(alpha.id, 'approved', 30);
      await booking(alpha.id, 'cancelled', 31);
      const first = await call('GET', url('/tenants'), dock);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ total: 27, page: 1, pageSize: 25 });
      expect(first.body.items.slice(0, 2).map((i: { name: string; bookingCount: number }) => [i.name, i.bookingCount])).toEqual([
        ['Alpha Freight', 2],
        ['beta Transport', 0],
      ]);
      const second = await call('GET', url('/tenants?page=2'), dock);
      expect(second.body.items.map((i: { name: string }) => i.name)).toEqual(['Zulu 23', 'Zulu 24']);
      expect((await call('GET', url('/tenants?q=ALPHA.T'), admin)).body.items.map((i: { name: string }) => i.name)).toEqual(['Alpha Freight']);
      expect((await call('GET', url('/tenants?q=desk@'), admin)).body.items.map((i: { name: string }) => i.name)).toEqual(['beta Transport']);
      expect((await call('GET', url('/tenants?q=100%25'), admin)).body.total).toBe(0);
      const blocked = await call('GET', url('/tenants?status=blocked'), admin);
      expect(blocked.body.items).toMatchObject([{ name: 'beta Transport', blockedReason: 'Safety' }]);
      expect((await call('GET', url('/tenants?page=9'), admin)).body).toMatchObject({ items: [], total: 27 });
    });

    it("computes a tenant's figures from its bookings", async () => {
      const { id } = await create({ name: 'Figures Co' });
      const other = await create({ name: 'Someone Else' });
      await booking(id, 'completed', -50, 10); // on time
      await booking(id, 'completed', -40, -30); // on time: exactly at the window's edge
      await booking(id, 'completed', -30, 45); // late
      await booking(id, 'checked_in', -1, -40); // early
      await booking(id, 'no_show', -20);
      await booking(id, 'cancelled', -10);
      await booking(id, 'declined', 5);
      await booking(id, 'approved', 24);
      await booking(id, 'pending', 48);
      await booking(other.id, 'completed', -60, 0); // another tenant's
      await booking(null, 'no_show', -70); // unlinked
      const res = await call('GET', url(`/tenants/${id}`), dock);
      expect(res.status).toBe(200);
      expect(res.body.figures).toEqual({
        bookings: 9,
        arrivals: 4,
        onTimeArrivals: 2,
        onTimeRate: 0.5,
        noShows: 1,
        cancellations: 1,
        upcoming: 2,
      });
    });

    it("pages a tenant's bookings, latest first, and only its own", async () => {
      const { id } = await create({ name: 'Busy Co' });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await booking(id, 'approved', 10 + i));
      await booking(null, 'approved', 100);
      const page1 = await call('GET', url(`/tenants/${id}/bookings`), dock);
      expect(page1.status).toBe(200);
      expect(page1.body).toMatchObject({ total: 12, page: 1, pageSize: 10 });
      expect(page1.body.items[0]).toMatchObject({ id: ids[11], siteName: 'Main Yard', bayName: 'M-1', timeZone: 'Australia/Sydney', status: 'approved' });
      const page2 = await call('GET', url(`/tenants/${id}/bookings?page=2`), dock);
      expect(page2.body.items.map((b: { id: string }) => b.id)).toEqual([ids[1], ids[0]]);
    });
  });

  describe('CSV import', () => {
    const HEADER = 'name,contact_emails,phone,email_domains,status,auto_approve,max_bookings_per_day';

    it('imports a good file in one go, with lists, yes/no and blanks', async () => {
      await create({ name: 'Already Here' });
      const csv = [
        `\uFEFF${HEADER}`,
        'Pacific Cold Chain,"coldchain@pacificcc.test; tom@pacificcc.test",+61 2 9555 1504,pacificcc.test,active,yes,6',
        '',
        '"Bayside Dairy, Co",,,,blocked,no,',
        'Golden Grain Millers,,,GOLDENGRAIN.test;gg-mills.test,,,',
      ].join('\r\n');
      const res = await importCsv(csv);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ imported: 3 });
      const list = await call('GET', url('/tenants'), admin);
      expect(list.body.items.map((i: { name: string }) => i.name)).toEqual(['Already Here', 'Bayside Dairy, Co', 'Golden Grain Millers', 'Pacific Cold Chain']);
      expect(list.body.items[3]).toMatchObject({
        contactEmails: ['coldchain@pacificcc.test', 'tom@pacificcc.test'],
        phone: '+61 2 9555 1504',
        emailDomains: ['pacificcc.test'],
        status: 'active',
        autoApprove: true,
        maxBookingsPerDay: 6,
      });
      expect(list.body.items[1]).toMatchObject({ status: 'blocked', autoApprove: false, maxBookingsPerDay: null, contactEmails: [] });
      expect(list.body.items[2].emailDomains).toEqual(['goldengrain.test', 'gg-mills.test']);
      const [audit] = await query<{ details: { count: number } }>(`select details from audit_log where action = 'tenant.imported' and org_id = $1`, [orgId]);
      expect(audit!.details.count).toBe(3);
    });

    it('takes the file as a multipart upload too', async () => {
      const form = new FormData();
      form.append('file', new Blob([`name,email_domains\nUploaded Co,uploaded.test\n`], { type: 'text/csv' }), 'tenants.csv');
      const res = await t.app.inject({ method: 'POST', url: url('/tenants/import'), headers: admin, payload: form as never });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ imported: 1 });
    });

    it('imports nothing when any row is wrong, and lists every problem with its line and column', async () => {
      await create({ name: 'Metro Haulage', emailDomains: ['metro.test'] });
      const csv = [
        HEADER,
        'Good One,good@one.test,,one.test,active,yes,2', // line 2: fine on its own
        'Bad Email,not-an-email,,,,,', // line 3
        'Too Few Cells,a@b.test', // line 4
        'good one,,,,,,', // line 5: the same name as line 2
        'metro haulage,,,,,,', // line 6: exists already
        'Odd Values,,,metro.test,paused,maybe,-1', // line 7
      ].join('\n');
      const before = await tenantCount();
      const res = await importCsv(csv);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('import_invalid');
      expect(res.json().error.message).toBe('8 problems found in the file; nothing was imported. Fix them and import the file again.');
      expect(res.json().error.details.errors).toEqual([
        { row: 3, column: 'contact_emails', message: 'not-an-email is not a valid e-mail address' },
        { row: 4, column: null, message: 'This row has 2 cells; the header has 7' },
        { row: 5, column: 'name', message: 'The name "good one" is already on line 2 of this file' },
        { row: 6, column: 'name', message: 'A tenant named "Metro Haulage" already exists' },
        { row: 7, column: 'status', message: 'Status must be active or blocked' },
        { row: 7, column: 'auto_approve', message: 'Auto-approve must be yes or no' },
        { row: 7, column: 'max_bookings_per_day', message: 'At least 1 booking a day (or no limit)' },
        { row: 7, column: 'email_domains', message: 'metro.test already links requests to Metro Haulage' },
      ].sort((a, b) => a.row - b.row));
      expect(await tenantCount()).toBe(before);
    });

    it('refuses a malformed file, an unknown column and an empty file, importing nothing', async () => {
      const unclosed = await importCsv(`${HEADER}\nFine Co,,,,,,\n"Broken Co,,,,,,\n`);
      expect(unclosed.statusCode).toBe(400);
      expect(unclosed.json().error.details.errors).toEqual([{ row: 3, column: null, message: expect.stringContaining('The file is not valid CSV') }]);
      const unknown = await importCsv('name,fax\nA,1\n');
      expect(unknown.json().error.details.errors).toEqual([
        { row: 1, column: 'fax', message: 'Unknown column "fax". The columns are: name, contact_emails, phone, email_domains, status, auto_approve, max_bookings_per_day' },
      ]);
      const empty = await importCsv('');
      expect(empty.statusCode).toBe(400);
      expect(await tenantCount()).toBe(0);
    });
  });

  describe('outsiders', () => {
    it('dockmasters read but cannot write (403)', async () => {
      const { id } = await create({ name: 'Read Only Co' });
      expect((await call('GET', url('/tenants'), dock)).status).toBe(200);
      expect((await call('GET', url(`/tenants/${id}`), dock)).status).toBe(200);
      expect((await call('POST', url('/tenants'), dock, { name: 'Nope' })).status).toBe(403);
      expect((await call('PATCH', url(`/tenants/${id}`), dock, { status: 'blocked' })).status).toBe(403);
      expect((await importCsv('name\nNope\n', dock)).statusCode).toBe(403);
      expect(await tenantCount()).toBe(1);
    });

    it("another organization's admin gets 404 for every route; anonymous callers 401; a bad id 404", async () => {
      const { id } = await create({ name: 'Private Co' });
      const routes: ['GET' | 'POST' | 'PATCH', string, unknown?][] = [
        ['GET', '/tenants'],
        ['GET', `/tenants/${id}`],
        ['GET', `/tenants/${id}/bookings`],
        ['POST', '/tenants', { name: 'Intruder' }],
        ['PATCH', `/tenants/${id}`, { status: 'blocked' }],
        ['POST', '/tenants/import', { name: 'x' }],
      ];
      for (const [method, path, body] of routes) {
        expect((await call(method, url(path), outsider, body)).status, `${method} ${path}`).toBe(404);
        expect((await call(method, url(path), {}, body)).status, `${method} ${path}`).toBe(401);
      }
      // Through its own organization, another organization's tenant does not exist.
      const otherTenant = (await query<{ id: string }>(`insert into tenants (org_id, name) values ($1, 'Theirs') returning id`, [otherOrgId]))[0]!.id;
      expect((await call('GET', url(`/tenants/${otherTenant}`), admin)).status).toBe(404);
      expect((await call('PATCH', url(`/tenants/${otherTenant}`), admin, { status: 'blocked' })).status).toBe(404);
      expect((await call('GET', url(`/tenants/${otherTenant}/bookings`), admin)).status).toBe(404);
      expect((await call('GET', url('/tenants/not-a-uuid'), admin)).status).toBe(404);
      expect((await query<{ status: string }>(`select status from tenants where id = $1`, [otherTenant]))[0]!.status).toBe('active');
    });
  });
});
