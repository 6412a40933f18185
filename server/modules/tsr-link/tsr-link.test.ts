import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { drainWebhooks } from '../../delivery/webhook-delivery';
import { fmClarityRecord, serviceNowRecord, tsrNoteRequest } from '../../delivery/tsr-adapters';

// TSR link against local stubs of each vendor's API (no network): ServiceNow's Table API (PATCH
// /api/now/table/{table}/{sys_id}, Basic auth, `work_notes` appended) and our assumed FMClarity
// comment endpoint (tsr-adapters.ts says what was and was not checked). A status change of a
// booking carrying a TSR URL reaches the record; wrong credentials are retried; a TSR URL on
// another host never receives the credentials.

const NOW = '2026-11-23T00:00:00Z';
const SYS_ID = '0123456789abcdef0123456789abcdef';

type StubCall = { method: string; path: string; authorization: string | undefined; body: Record<string, unknown> };

/** A tiny stand-in for a vendor API: records calls; answers 401 unless the expected authorization is sent. */
async function startStub(expectedAuthorization: () => string, answer: (call: StubCall) => [number, unknown]) {
  const calls: StubCall[] = [];
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const call = { method: request.method ?? '', path: request.url ?? '', authorization: request.headers.authorization, body: raw ? JSON.parse(raw) : {} };
      calls.push(call);
      const [status, body] = call.authorization === expectedAuthorization() ? answer(call) : [401, { error: { message: 'User Not Authenticated' } }];
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('TSR record links', () => {
  it('finds the ServiceNow record in the link shapes people paste', () => {
    const expected = { table: 'sc_task', sysId: SYS_ID };
    expect(serviceNowRecord(`https://acme.service-now.com/sc_task.do?sys_id=${SYS_ID}`)).toEqual(expected);
    expect(serviceNowRecord(`https://acme.service-now.com/nav_to.do?uri=sc_task.do%3Fsys_id%3D${SYS_ID}`)).toEqual(expected);
    expect(serviceNowRecord(`https://acme.service-now.com/now/nav/ui/classic/params/target/sc_task.do%3Fsys_id%3D${SYS_ID}`)).toEqual(expected);
    expect(serviceNowRecord(`https://acme.service-now.com/now/sow/record/sc_task/${SYS_ID}`)).toEqual(expected);
    expect(serviceNowRecord(`https://acme.service-now.com/api/now/table/sc_task/${SYS_ID}`)).toEqual(expected);
    expect(serviceNowRecord('https://acme.service-now.com/sc_task.do?sys_id=nothex')).toBeNull();
    expect(fmClarityRecord('https://app.fmclarity.com/requests/REQ-1042')).toEqual({ requestId: 'REQ-1042' });
    expect(fmClarityRecord('https://app.fmclarity.com/?request=abc123')).toEqual({ requestId: 'abc123' });
  });

  it('never targets a host other than the connection’s', () => {
    expect(tsrNoteRequest('servicenow', 'https://acme.service-now.com', `https://evil.example.com/sc_task.do?sys_id=${SYS_ID}`, 'x')).toBeNull();
    expect(tsrNoteRequest('servicenow', 'https://acme.service-now.com', `https://acme.service-now.com/sc_task.do?sys_id=${SYS_ID}`, 'note')).toEqual({
      method: 'PATCH',
      url: `https://acme.service-now.com/api/now/table/sc_task/${SYS_ID}?sysparm_fields=sys_id`,
      body: JSON.stringify({ work_notes: 'note' }),
    });
  });
});

describe.each(databaseKinds)('TSR link on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let site: { id: string; orgId: string };
  let bayId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let seq = 0;
  let snPassword = 's3cret';
  let serviceNow: Awaited<ReturnType<typeof startStub>>;
  let fmClarity: Awaited<ReturnType<typeof startStub>>;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: 'GET' | 'PUT' | 'DELETE' | 'POST', path: string, headers: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({ method, url: `/api/orgs/${orgId}${path}`, headers, payload: payload as never });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };
  /** A pending booking `hoursAhead` from NOW (by default days ahead, each a different hour). */
  const booking = async (system: string, tsrUrl: string | null, hoursAhead?: number) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + (hoursAhead ?? 72 + seq) * 3_600_000);
    const end = new Date(start.getTime() + 3_600_000);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tsr_system_type, tsr_url, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min)
       values ($1, $2, $3, $4, $5, $6, 'Link Freight', 'h@example.test', $7, $8, $7, $8, 'rigid', $9, 3500, 3.5, 'pending', 'admin', 60) returning id`,
      [orgId, site.id, bayId, `TSR-LINK-${seq}`, system, tsrUrl, start.toISOString(), end.toISOString(), `LINK${seq}`],
    );
    return row!.id;
  };
  const move = async (id: string, to: string, reason?: string) => {
    const [b] = await query<{ version: number }>(`select version from bookings where id = $1`, [id]);
    const res = await call('POST', `/bookings/${id}/transitions`, admin, { to, version: b!.version, ...(reason ? { reason } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Link Org' })).id;
    site = await createSite(db, orgId, { name: 'Link Yard', timeZone: 'UTC' });
    bayId = (await createBay(db, site, { name: 'L-1', heightClearanceM: 5 })).id;
    const a = await createUser(db, { email: 'link-admin@example.test' });
    await addMember(db, orgId, a.id, 'org_admin');
    const d = await createUser(db, { email: 'link-dock@example.test' });
    await addMember(db, orgId, d.id, 'dockmaster');
    admin = bearer(await signIn(t.app, a.email));
    dock = bearer(await signIn(t.app, d.email));
    serviceNow = await startStub(
      () => `Basic ${Buffer.from(`integration:${snPassword}`).toString('base64')}`,
      (c) => [200, { result: { sys_id: c.path.split('/')[5]?.split('?')[0] } }],
    );
    fmClarity = await startStub(() => 'Bearer fm-key-1', () => [201, { id: 'comment-1' }]);
    await query(
      `insert into platform_settings (key, value) values ('platform.config', '{"allowPrivateWebhookTargets": true}'::jsonb)
       on conflict (key) do update set value = platform_settings.value || excluded.value`,
    );
  });
  afterAll(async () => {
    await serviceNow?.close();
    await fmClarity?.close();
    await t?.close();
  });
  afterEach(() => {
    serviceNow.calls.length = 0;
    fmClarity.calls.length = 0;
  });

  it('keeps the connection for admins only, with its credentials encrypted and never answered', async () => {
    expect((await call('GET', '/tsr-connections', dock)).status).toBe(403);
    expect((await call('PUT', '/tsr-connections', dock, {})).status).toBe(403);
    const bad = await call('PUT', '/tsr-connections', admin, { system: 'servicenow', baseUrl: 'ftp://x', username: 'u', password: 'p' });
    expect(bad.status).toBe(400);
    // A NUL or a line break in the user name (it goes into an Authorization header) is refused by name, storing nothing (issue 21).
    for (const username of ['inte\u0000gration', 'integration\r\nX-Injected: 1']) {
      const refused = await call('PUT', '/tsr-connections', admin, { system: 'servicenow', baseUrl: serviceNow.origin, username, password: snPassword });
      expect(refused.status, username).toBe(400);
      expect(refused.body.error.details).toContainEqual({ path: 'username', message: 'User name contains characters that are not allowed (control characters or line breaks)' });
    }
    expect(await query(`select org_id from tsr_connections where org_id = $1`, [orgId])).toEqual([]);
    const saved = await call('PUT', '/tsr-connections', admin, { system: 'servicenow', baseUrl: `${serviceNow.origin}/some/path`, username: 'integration', password: snPassword });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ system: 'servicenow', baseUrl: serviceNow.origin, username: 'integration', enabled: true });
    expect(JSON.stringify(saved.body)).not.toContain(snPassword);
    const [row] = await query<{ credentials_enc: string }>(`select credentials_enc from tsr_connections where org_id = $1`, [orgId]);
    expect(row!.credentials_enc).toMatch(/^v1:/);
    expect(row!.credentials_enc).not.toContain(snPassword);
    const list = await call('GET', '/tsr-connections', admin);
    expect(JSON.stringify(list.body)).not.toContain(snPassword);
    const audit = await query<{ details: Record<string, unknown> }>(`select details from audit_log where action = 'tsr_connection.saved'`);
    expect(JSON.stringify(audit)).not.toContain(snPassword);
  });

  it('posts each status change to the ServiceNow record as a work note (Table API, Basic auth)', async () => {
    // Starting in half an hour: check-in is open.
    const id = await booking('servicenow', `${serviceNow.origin}/nav_to.do?uri=sc_task.do%3Fsys_id%3D${SYS_ID}`, 0.5);
    await move(id, 'approved');
    await move(id, 'checked_in');
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 2, retried: 0 });
    expect(serviceNow.calls).toHaveLength(2);
    for (const c of serviceNow.calls) {
      expect(c.method).toBe('PATCH');
      expect(c.path).toBe(`/api/now/table/sc_task/${SYS_ID}?sysparm_fields=sys_id`);
    }
    const notes = serviceNow.calls.map((c) => String(c.body.work_notes));
    expect(notes.some((n) => n.includes(`TSR-LINK-${seq} is now Approved (was Pending)`))).toBe(true);
    expect(notes.some((n) => n.includes('is now Checked in (was Approved)') && n.includes('Link Yard, bay L-1'))).toBe(true);
  });

  it('does not send a note for a TSR URL on another host, nor without a TSR URL, nor for another system', async () => {
    await move(await booking('servicenow', `https://93.184.215.14/sc_task.do?sys_id=${SYS_ID}`), 'approved');
    await move(await booking('servicenow', null), 'approved');
    await move(await booking('other', `${serviceNow.origin}/sc_task.do?sys_id=${SYS_ID}`), 'approved');
    expect(await query(`select count(*)::int as n from webhook_deliveries where kind = 'tsr' and status = 'pending'`)).toEqual([{ n: 0 }]);
  });

  it('retries when ServiceNow refuses the credentials, and delivers once they are right', async () => {
    snPassword = 'changed-by-the-customer';
    const id = await booking('servicenow', `${serviceNow.origin}/sc_task.do?sys_id=${SYS_ID}`);
    await move(id, 'approved');
    expect(await drainWebhooks(t.ctx)).toMatchObject({ retried: 1 });
    const [pending] = await query<{ status: string; last_status_code: number; attempts: number }>(
      `select status, last_status_code, attempts from webhook_deliveries where kind = 'tsr' and status = 'pending'`,
    );
    expect(pending).toEqual({ status: 'pending', last_status_code: 401, attempts: 1 });
    expect((await call('PUT', '/tsr-connections', admin, { system: 'servicenow', baseUrl: serviceNow.origin, username: 'integration', password: snPassword })).status).toBe(200);
    t.clock.advance(60_000);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
    expect(serviceNow.calls.at(-1)!.authorization).toBe(`Basic ${Buffer.from(`integration:${snPassword}`).toString('base64')}`);
  });

  it('holds a queued note when the connection moves to another host: the credentials never go to the old one', async () => {
    const id = await booking('servicenow', `${serviceNow.origin}/sc_task.do?sys_id=${SYS_ID}`);
    await move(id, 'approved');
    const [{ id: noteId }] = await query<{ id: string }>(`select id from webhook_deliveries where kind = 'tsr' and status = 'pending'`);
    const moved = await call('PUT', '/tsr-connections', admin, { system: 'servicenow', baseUrl: fmClarity.origin, username: 'integration', password: snPassword });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 0, retried: 1 });
    expect(serviceNow.calls).toHaveLength(0);
    expect(fmClarity.calls).toHaveLength(0);
    expect(await query(`select last_error from webhook_deliveries where id = $1`, [noteId])).toEqual([{ last_error: 'The TSR connection now points at another host' }]);
    // Back on its host, the note goes at its next attempt.
    expect((await call('PUT', '/tsr-connections', admin, { system: 'servicenow', baseUrl: serviceNow.origin, username: 'integration', password: snPassword })).status).toBe(200);
    t.clock.advance(60_000);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
    expect(serviceNow.calls).toHaveLength(1);
  });

  it('posts to FMClarity with its API key, reason included', async () => {
    expect((await call('PUT', '/tsr-connections', admin, { system: 'fmclarity', baseUrl: fmClarity.origin, apiKey: 'fm-key-1' })).status).toBe(200);
    const id = await booking('fmclarity', `${fmClarity.origin}/requests/REQ-1042`);
    await move(id, 'declined', 'Bay closed for maintenance');
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
    expect(fmClarity.calls).toHaveLength(1);
    expect(fmClarity.calls[0]).toMatchObject({ method: 'POST', path: '/api/v1/requests/REQ-1042/comments', authorization: 'Bearer fm-key-1' });
    expect(String(fmClarity.calls[0]!.body.comment)).toContain('Reason: Bay closed for maintenance');
    expect((await call('DELETE', '/tsr-connections/fmclarity', admin)).status).toBe(204);
    expect((await call('DELETE', '/tsr-connections/fmclarity', admin)).status).toBe(404);
  });
});
