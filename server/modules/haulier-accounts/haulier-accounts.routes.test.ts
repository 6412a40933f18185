import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LINK_SENT, SIGN_IN_LINKS_PER_EMAIL } from '../../../domain/haulier-accounts';
import { hashToken } from '../../auth/tokens';
import { tenants } from '../../db/schema';
import { createBay, createOrg, createSite } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { manageTokenFor } from '../bookings/manage-token';

// Haulier accounts without passwords (issue 27 item 1, decision 044), through the HTTP API on both
// databases: the one-time link (expiry on a frozen clock, single use, wrong token, rate limits, the
// same answer for any address), the session cookie (sign-out, expiry), bookings across two
// organizations, and that one haulier never reaches another's bookings, vehicles or contacts.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('haulier accounts on %s', (kind) => {
  let t: TestApp;
  let orgA: { id: string; siteId: string; bayId: string };
  let orgB: { id: string; siteId: string; bayId: string };
  let seq = 0;

  const call = async (method: string, url: string, options: { cookie?: string; payload?: unknown; ip?: string } = {}) => {
    const response = await t.app.inject({
      method: method as 'GET',
      url,
      headers: options.cookie ? { cookie: options.cookie } : {},
      payload: options.payload as never,
      remoteAddress: options.ip,
    });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body, headers: response.headers };
  };

  const orgWithSite = async (name: string) => {
    const org = await createOrg(t.ctx.database, { name });
    const site = await createSite(t.ctx.database, org.id, { name: `${name} Yard`, timeZone: 'Australia/Sydney' });
    const bay = await createBay(t.ctx.database, site);
    return { id: org.id, siteId: site.id, bayId: bay.id };
  };

  /** A booking straight into the table, with the manage link a portal booking gets. */
  const booking = async (org: { id: string; siteId: string; bayId: string }, email: string, minutesFromNow: number) => {
    seq += 1;
    const id = randomUUID();
    const start = new Date(Date.parse(NOW) + minutesFromNow * 60_000);
    const end = new Date(start.getTime() + 30 * 60_000);
    await t.ctx.database.query(
      `insert into bookings (id, org_id, site_id, bay_id, tsr_number, tenant_name, contact_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, manage_token_hash)
       values ($1, $2, $3, $4, $5, 'Fast Freight', 'Jo', $6, $7, $8, $7, $8, 'rigid', $9, 3000, 3, 'approved', 'portal', 30, $10)`,
      [id, org.id, org.siteId, org.bayId, `TSR-H-${seq}`, email, start.toISOString(), end.toISOString(), `HAUL${seq}`, hashToken(manageTokenFor(t.ctx.authSecret, id))],
    );
    return id;
  };

  /** The token of the newest sign-in mail to `email`. */
  const mailedToken = async (email: string) => {
    const mail = (await t.outbox()).filter((m) => [m.to].flat().some((a) => a?.text.includes(email))).at(-1);
    return mail?.text?.match(/\/book\/account\/sign-in#token=([\w-]+)/)?.[1];
  };

  const signIn = async (email: string) => {
    expect((await call('POST', '/api/public/haulier/sign-in-link', { payload: { email } })).status).toBe(202);
    const token = await mailedToken(email);
    const res = await call('POST', '/api/public/haulier/sessions', { payload: { token } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cookie = String([res.headers['set-cookie']].flat()[0]).split(';')[0]!;
    return cookie;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    orgA = await orgWithSite('Alpha Logistics');
    orgB = await orgWithSite('Beta Cold Store');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the same for any address, mails a one-time link and signs in with an HttpOnly cookie', async () => {
    const known = await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'Jo@FastFreight.example' } });
    const unknown = await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'nobody@nowhere.example' } });
    expect(known).toMatchObject({ status: 202, body: { message: SIGN_IN_LINK_SENT } });
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    const token = await mailedToken('jo@fastfreight.example');
    expect(token).toMatch(/^[\w-]{43}$/);
    const [stored] = await t.ctx.database.query<{ token_hash: string; expires_at: Date }>(`select token_hash, expires_at from haulier_sign_in_links where email = 'jo@fastfreight.example'`);
    expect(stored!.token_hash).toBe(hashToken(token!));
    expect(new Date(stored!.expires_at).toISOString()).toBe('2026-11-23T00:15:00.000Z');

    const res = await call('POST', '/api/public/haulier/sessions', { payload: { token } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'jo@fastfreight.example', language: 'en' });
    const setCookie = String([res.headers['set-cookie']].flat()[0]);
    expect(setCookie).toMatch(/^bw_haulier=[\w%-]+; Path=\/api\/public\/haulier; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    const me = await call('GET', '/api/public/haulier/me', { cookie: setCookie.split(';')[0] });
    expect(me).toMatchObject({ status: 200, body: { signedIn: true, email: 'jo@fastfreight.example' } });
    // Nobody signed in: an answer, not a failure (the portal asks on every visit).
    expect(await call('GET', '/api/public/haulier/me')).toMatchObject({ status: 200, body: { signedIn: false }, headers: { 'cache-control': 'no-store' } });
  });

  it('writes the sign-in mail in the language of the request', async () => {
    await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'ola@przewozy.example', language: 'pl' } });
    const mail = (await t.outbox()).filter((m) => [m.to].flat().some((a) => a?.text.includes('ola@przewozy.example'))).at(-1)!;
    expect(mail.subject).toBe('Twój link do logowania w Baywise');
    expect(mail.text).toContain('Link działa jednorazowo przez 15 minut.');
    expect((await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'ola@przewozy.example', language: 'xx' } })).status).toBe(400);
  });

  it('refuses a used link, a wrong token, and an expired link (frozen clock)', async () => {
    await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'reuse@fastfreight.example' } });
    const token = await mailedToken('reuse@fastfreight.example');
    expect((await call('POST', '/api/public/haulier/sessions', { payload: { token } })).status).toBe(200);
    const again = await call('POST', '/api/public/haulier/sessions', { payload: { token } });
    expect(again).toMatchObject({ status: 410, body: { error: { code: 'sign_in_link_used', message: 'This sign-in link has already been used. Ask for a new one.' } } });
    const wrong = await call('POST', '/api/public/haulier/sessions', { payload: { token: 'x'.repeat(43) } });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: 'sign_in_link_invalid' } } });
    expect((await call('POST', '/api/public/haulier/sessions', { payload: {} })).status).toBe(400);

    await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'late@fastfreight.example' } });
    const late = await mailedToken('late@fastfreight.example');
    t.clock.advance(15 * 60_000);
    try {
      const expired = await call('POST', '/api/public/haulier/sessions', { payload: { token: late } });
      expect(expired).toMatchObject({ status: 410, body: { error: { code: 'sign_in_link_expired', message: 'This sign-in link has expired. Ask for a new one.' } } });
    } finally {
      t.clock.set(NOW);
    }
  });

  it('limits links per e-mail address and per IP', async () => {
    for (let i = 0; i < SIGN_IN_LINKS_PER_EMAIL; i += 1) {
      expect((await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'Busy@fastfreight.example' } })).status).toBe(202);
    }
    const refused = await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'busy@FASTFREIGHT.example' } });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'too_many_sign_in_links' } } });
    expect(refused.body.error.message).toMatch(/^Too many sign-in links were asked for this address\. Try again in \d+ minutes?\.$/);
    expect((await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: 'calm@fastfreight.example' } })).status).toBe(202);

    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      statuses.push((await call('POST', '/api/public/haulier/sign-in-link', { payload: { email: `ip${i}@fastfreight.example` }, ip: '10.9.9.9' })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 202)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("lists the haulier's bookings on both organizations, and never another haulier's", async () => {
    const upcomingA = await booking(orgA, 'Sam@Carriers.example', 24 * 60);
    const upcomingB = await booking(orgB, 'sam@carriers.example', 48 * 60);
    const pastA = await booking(orgA, 'sam@carriers.example', -48 * 60);
    const others = await booking(orgB, 'kim@other.example', 24 * 60);
    const sam = await signIn('sam@carriers.example');
    const kim = await signIn('kim@other.example');

    const upcoming = await call('GET', '/api/public/haulier/bookings?scope=upcoming', { cookie: sam });
    expect(upcoming.status).toBe(200);
    expect(upcoming.body).toMatchObject({ page: 1, total: 2 });
    expect(upcoming.body.items.map((b: { id: string }) => b.id)).toEqual([upcomingA, upcomingB]);
    expect(upcoming.body.items[0]).toEqual({
      id: upcomingA,
      organizationName: 'Alpha Logistics',
      siteName: 'Alpha Logistics Yard',
      timeZone: 'Australia/Sydney',
      startTime: '2026-11-24T00:00:00.000Z',
      endTime: '2026-11-24T00:30:00.000Z',
      status: 'approved',
      bookingType: 'delivery',
      tsrNumber: expect.stringMatching(/^TSR-H-/),
      vehicleType: 'rigid',
      vehicleRegistration: expect.stringMatching(/^HAUL/),
      manageUrl: `http://localhost:3000/book/manage/${manageTokenFor(t.ctx.authSecret, upcomingA)}`,
    });
    expect(upcoming.body.items[1].organizationName).toBe('Beta Cold Store');
    const past = await call('GET', '/api/public/haulier/bookings?scope=past', { cookie: sam });
    expect(past.body.items.map((b: { id: string }) => b.id)).toEqual([pastA]);
    expect((await call('GET', '/api/public/haulier/bookings?scope=upcoming&page=2', { cookie: sam })).body.items).toEqual([]);
    expect((await call('GET', '/api/public/haulier/bookings?scope=soon', { cookie: sam })).status).toBe(400);

    const kims = await call('GET', '/api/public/haulier/bookings?scope=upcoming', { cookie: kim });
    expect(kims.body.items.map((b: { id: string }) => b.id)).toEqual([others]);

    const rebook = await call('GET', `/api/public/haulier/bookings/${pastA}/rebook`, { cookie: sam });
    expect(rebook).toMatchObject({ status: 200, body: { orgId: orgA.id, siteId: null, tenantName: 'Fast Freight', contactName: 'Jo', vehicleType: 'rigid', vehicleHeightM: 3, expectedDurationMin: 30 } });
    expect(rebook.body).not.toHaveProperty('date');
    expect((await call('GET', `/api/public/haulier/bookings/${pastA}/rebook`, { cookie: kim })).status).toBe(404);
    expect((await call('GET', `/api/public/haulier/bookings/${randomUUID()}/rebook`, { cookie: sam })).status).toBe(404);
    expect((await call('GET', '/api/public/haulier/bookings')).status).toBe(401);
  });

  it("keeps saved vehicles and contacts to their haulier: another's id is a 404", async () => {
    const ann = await signIn('ann@trucks.example');
    const ben = await signIn('ben@trucks.example');
    const vehicle = await call('POST', '/api/public/haulier/vehicles', {
      cookie: ann,
      payload: { label: 'Blue Volvo', vehicleType: 'semi', vehicleRegistration: 'abc123', vehicleHeightM: '4.2', vehicleLengthM: 19 },
    });
    expect(vehicle).toMatchObject({ status: 201, body: { label: 'Blue Volvo', vehicleType: 'semi', vehicleRegistration: 'ABC123', vehicleHeightM: 4.2, vehicleLengthM: 19 } });
    expect((await call('POST', '/api/public/haulier/vehicles', { cookie: ann, payload: { vehicleType: 'semi', vehicleRegistration: 'ABC123', vehicleHeightM: 4 } })).status).toBe(409);
    const invalid = await call('POST', '/api/public/haulier/vehicles', { cookie: ann, payload: { vehicleType: 'boat', vehicleRegistration: '', vehicleHeightM: 0 } });
    expect(invalid.status).toBe(400);
    const contact = await call('POST', '/api/public/haulier/contacts', { cookie: ann, payload: { companyName: 'Ann Haulage', contactName: 'Ann', phone: '0400 000 000' } });
    expect(contact).toMatchObject({ status: 201, body: { companyName: 'Ann Haulage', contactName: 'Ann', phone: '0400 000 000' } });

    expect((await call('GET', '/api/public/haulier/vehicles', { cookie: ben })).body).toEqual([]);
    expect((await call('GET', '/api/public/haulier/contacts', { cookie: ben })).body).toEqual([]);
    expect((await call('DELETE', `/api/public/haulier/vehicles/${vehicle.body.id}`, { cookie: ben })).status).toBe(404);
    expect((await call('DELETE', `/api/public/haulier/contacts/${contact.body.id}`, { cookie: ben })).status).toBe(404);
    expect((await call('GET', '/api/public/haulier/vehicles', { cookie: ann })).body).toHaveLength(1);

    expect((await call('DELETE', `/api/public/haulier/vehicles/${vehicle.body.id}`, { cookie: ann })).status).toBe(204);
    expect((await call('DELETE', `/api/public/haulier/contacts/${contact.body.id}`, { cookie: ann })).status).toBe(204);
    expect((await call('GET', '/api/public/haulier/vehicles', { cookie: ann })).body).toEqual([]);
  });

  it('ends a session at sign-out and refuses one past its 30 days', async () => {
    const first = await signIn('out@trucks.example');
    const out = await call('DELETE', '/api/public/haulier/sessions/current', { cookie: first });
    expect(out.status).toBe(204);
    expect(String([out.headers['set-cookie']].flat()[0])).toMatch(/^bw_haulier=; Path=\/api\/public\/haulier; Max-Age=0/);
    expect(await call('GET', '/api/public/haulier/me', { cookie: first })).toMatchObject({ status: 200, body: { signedIn: false } });
    expect(await call('GET', '/api/public/haulier/vehicles', { cookie: first })).toMatchObject({ status: 401, body: { error: { code: 'haulier_signed_out' } } });

    const second = await signIn('out2@trucks.example');
    expect((await call('GET', '/api/public/haulier/me', { cookie: second })).status).toBe(200);
    t.clock.advance(30 * 86_400_000);
    try {
      expect((await call('GET', '/api/public/haulier/me', { cookie: second })).body).toEqual({ signedIn: false });
      expect((await call('GET', '/api/public/haulier/bookings', { cookie: second })).status).toBe(401);
    } finally {
      t.clock.set(NOW);
    }
  });

  it("takes a standing request only where the haulier's tenant allows it", async () => {
    const pat = await signIn('pat@regular.example');
    const request = {
      orgId: orgA.id,
      siteId: orgA.siteId,
      tenantName: 'Regular Runs',
      contactName: 'Pat',
      weekdays: [4, 2, 2],
      startLocal: '07:00',
      durationMin: 60,
      startsOn: '2026-12-01',
      tsrNumber: 'TSR-STANDING',
      vehicleType: 'rigid',
      vehicleRegistration: 'reg1',
      vehicleHeightM: 3.5,
    };
    const refused = await call('POST', '/api/public/haulier/standing-requests', { cookie: pat, payload: request });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'standing_requests_not_allowed' } } });

    await t.ctx.database.db.insert(tenants).values({ orgId: orgA.id, name: 'Regular Runs', emailDomains: ['regular.example'], standingRequestsAllowed: true });
    // The same address at the other organization: no tenant there lets it ask.
    expect((await call('POST', '/api/public/haulier/standing-requests', { cookie: pat, payload: { ...request, orgId: orgB.id, siteId: orgB.siteId } })).status).toBe(403);
    // Another organization's site under this organization: not found.
    expect((await call('POST', '/api/public/haulier/standing-requests', { cookie: pat, payload: { ...request, siteId: orgB.siteId } })).status).toBe(404);
    expect((await call('POST', '/api/public/haulier/standing-requests', { cookie: pat, payload: { ...request, endsOn: '2026-11-01' } })).status).toBe(400);

    const made = await call('POST', '/api/public/haulier/standing-requests', { cookie: pat, payload: request });
    expect(made).toMatchObject({ status: 201, body: { status: 'requested' } });
    const [row] = await t.ctx.database.query<Record<string, unknown>>(
      `select s.status, s.weekdays, s.tenant_email, s.requested_by_account_id = a.id as by_pat, s.org_id from standing_bookings s, haulier_accounts a where s.id = $1 and a.email = 'pat@regular.example'`,
      [made.body.id],
    );
    expect(row).toMatchObject({ status: 'requested', weekdays: [2, 4], tenant_email: 'pat@regular.example', by_pat: true, org_id: orgA.id });
  });

  it("lists a haulier's own standing requests and series with their status, never another haulier's", async () => {
    expect((await call('GET', '/api/public/haulier/standing-bookings')).status).toBe(401);
    const sam = await signIn('sam@steady.example');
    expect(await call('GET', '/api/public/haulier/standing-bookings', { cookie: sam })).toMatchObject({ status: 200, body: { items: [] } });

    await t.ctx.database.db.insert(tenants).values({ orgId: orgB.id, name: 'Steady Runs', emailDomains: ['steady.example'], standingRequestsAllowed: true });
    const request = {
      orgId: orgB.id,
      siteId: orgB.siteId,
      tenantName: 'Steady Runs',
      contactName: 'Sam',
      weekdays: [1, 3],
      startLocal: '06:30',
      durationMin: 45,
      startsOn: '2026-12-07',
      endsOn: '2027-01-29',
      tsrNumber: 'TSR-SAM',
      vehicleType: 'rigid',
      vehicleRegistration: 'sam1',
      vehicleHeightM: 3.2,
    };
    const made = await call('POST', '/api/public/haulier/standing-requests', { cookie: sam, payload: request });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // An organization's own series for Sam's address (any case), since declined.
    const [{ id: declinedId }] = await t.ctx.database.query<{ id: string }>(
      `insert into standing_bookings (org_id, site_id, status, weekdays, start_local, duration_min, starts_on, booking_type, tsr_number, tenant_name, tenant_email,
                                      vehicle_type, vehicle_registration, vehicle_height_m, decision_reason, created_at, updated_at)
       values ($1, $2, 'declined', '{5}', '10:00', 30, '2026-12-04', 'delivery', 'TSR-SAM-OLD', 'Steady Runs', 'Sam@Steady.example', 'van', 'SAM2', 2.5, 'Bay works', $3, $3)
       returning id`,
      [orgA.id, orgA.siteId, new Date(Date.parse(NOW) - 86_400_000).toISOString()],
    );
    // Another haulier's request: never Sam's to see.
    const kim = await signIn('kim@steady.example');
    expect((await call('POST', '/api/public/haulier/standing-requests', { cookie: kim, payload: { ...request, tsrNumber: 'TSR-KIM' } })).status).toBe(201);

    const listed = await call('GET', '/api/public/haulier/standing-bookings', { cookie: sam });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        id: made.body.id,
        status: 'requested',
        organizationName: 'Beta Cold Store',
        siteName: 'Beta Cold Store Yard',
        timeZone: 'Australia/Sydney',
        weekdays: [1, 3],
        startLocal: '06:30',
        durationMin: 45,
        startsOn: '2026-12-07',
        endsOn: '2027-01-29',
        tsrNumber: 'TSR-SAM',
        vehicleRegistration: 'SAM1',
        requestedByHaulier: true,
        decisionReason: null,
      }),
      expect.objectContaining({ id: declinedId, status: 'declined', organizationName: 'Alpha Logistics', decisionReason: 'Bay works', requestedByHaulier: false, endsOn: null }),
    ]);
    const kims = await call('GET', '/api/public/haulier/standing-bookings', { cookie: kim });
    expect(kims.body.items.map((item: { tsrNumber: string }) => item.tsrNumber)).toEqual(['TSR-KIM']);
  });
});
