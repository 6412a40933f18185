import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { seedDemoDataIfEmpty } from '../db/seed';
import { sendDueReminders } from '../jobs/booking-reminders';
import { applyTransition } from '../modules/bookings/lifecycle.service';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { drainSms, enqueueSms } from './sms-outbox';
import { toE164 } from './sms-sender';
import { createTwilioSmsSender } from './twilio-sms';

// The SMS channel against a local stub of the provider's API: the request's shape, retries on
// 5xx, a refused number given up at once, "go to bay" from the lifecycle, and nothing at all
// when SMS is not configured.

type Received = { method: string; url: string; authorization: string | undefined; contentType: string | undefined; form: Record<string, string> };

function startStub() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        form: Object.fromEntries(new URLSearchParams(body)),
      });
      const status = answers.shift() ?? 201;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status < 300 ? { sid: `SM${received.length}`, status: 'queued' } : { code: 20003, message: 'stub refusal' }));
    });
  });
  return {
    received,
    answers,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/2010-04-01`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('SMS configuration and numbers', () => {
  it('is off unless all four settings are given, and refuses a partial set', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).sms).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'test', SMS_URL: 'http://127.0.0.1:1' })).toThrow(/SMS_ACCOUNT_SID/);
    expect(loadConfig({ NODE_ENV: 'test', SMS_URL: 'http://x.test/', SMS_ACCOUNT_SID: 'AC1', SMS_AUTH_TOKEN: 't', SMS_FROM: '+1555' }).sms).toEqual({
      url: 'http://x.test',
      accountSid: 'AC1',
      authToken: 't',
      from: '+1555',
    });
  });
  it('dials international numbers only', () => {
    expect(toE164('+61 412 345-678')).toBe('+61412345678');
    expect(toE164('0044 (20) 7946 0958')).toBe('+442079460958');
    expect(toE164('0412 345 678')).toBeNull();
    expect(toE164('')).toBeNull();
    expect(toE164('+12')).toBeNull();
  });
});

describe.each(databaseKinds)('the SMS outbox on %s', (kind) => {
  const stub = startStub();
  let t: TestApp;
  let acmeId: string;
  let siteId: string;
  let seq = 0;
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const sender = () => createTwilioSmsSender(t.config.sms!);
  const queue = (to: string, body: string) => t.ctx.database.db.transaction((tx) => enqueueSms(tx, t.clock.now(), [{ kind: 'test', to, body }]));

  const checkedIn = async (app: TestApp, start: string, phone: string | null) => {
    const n = ++seq;
    const q = app.ctx.database.query.bind(app.ctx.database);
    const org = (await q<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    const site = (await q<{ id: string }>(`select id from sites where org_id = $1 order by created_at limit 1`, [org]))[0]!.id;
    const bay = (await q<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 5) returning id`, [org, site, `SMS-${n}`]))[0]!.id;
    const end = new Date(Date.parse(start) + 3_600_000).toISOString();
    const [row] = await q<{ id: string; version: number }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, tenant_phone, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, created_at)
       values ($1, $2, $3, $4, 'Text Freight', 'text@example.test', $5, $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, 'checked_in', 'admin', $9) returning id, version`,
      [org, site, bay, `TSR-SMS-${n}`, phone, start, end, `SMS${n}${kind}`, app.clock.now().toISOString()],
    );
    return { id: row!.id, orgId: org, bayName: `SMS-${n}` };
  };

  beforeAll(async () => {
    const url = await stub.listen();
    t = await createTestApp(kind, {
      now: '2026-12-01T08:00:00Z',
      env: { SMS_URL: url, SMS_ACCOUNT_SID: 'AC0123', SMS_AUTH_TOKEN: 'secret-token', SMS_FROM: '+15550001111' },
    });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    siteId = (await query<{ id: string }>(`select id from sites where org_id = $1 order by created_at limit 1`, [acmeId]))[0]!.id;
    expect(siteId).toBeTruthy();
  });
  afterAll(async () => {
    await t?.close();
    await stub.close();
  });

  it('posts To, From and Body as a form to Accounts/{sid}/Messages.json with basic auth, and records the provider’s id', async () => {
    stub.received.length = 0;
    await queue('+61412345678', 'Baywise: Go to bay N-05 now.');
    expect(await drainSms(t.ctx, sender())).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(stub.received).toEqual([
      {
        method: 'POST',
        url: '/2010-04-01/Accounts/AC0123/Messages.json',
        authorization: `Basic ${Buffer.from('AC0123:secret-token').toString('base64')}`,
        contentType: 'application/x-www-form-urlencoded',
        form: { To: '+61412345678', From: '+15550001111', Body: 'Baywise: Go to bay N-05 now.' },
      },
    ]);
    const [row] = await query<{ status: string; provider_message_id: string; attempts: number }>(
      `select status, provider_message_id, attempts from sms_outbox where body = 'Baywise: Go to bay N-05 now.'`,
    );
    expect(row).toEqual({ status: 'sent', provider_message_id: 'SM1', attempts: 1 });
  });

  it('retries after a 5xx with back-off and sends once the provider answers', async () => {
    stub.received.length = 0;
    stub.answers.push(503);
    await queue('+61412000001', 'retry me');
    expect(await drainSms(t.ctx, sender())).toEqual({ sent: 0, retried: 1, failed: 0 });
    const [waiting] = await query<{ status: string; last_error: string }>(`select status, last_error from sms_outbox where body = 'retry me'`);
    expect(waiting!.status).toBe('pending');
    expect(waiting!.last_error).toContain('503');
    // Not due again before its back-off (30 s).
    expect(await drainSms(t.ctx, sender())).toEqual({ sent: 0, retried: 0, failed: 0 });
    t.clock.advance(30_000);
    expect(await drainSms(t.ctx, sender())).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(stub.received.map((r) => r.form.Body)).toEqual(['retry me', 'retry me']);
    const [sent] = await query<{ status: string; attempts: number }>(`select status, attempts from sms_outbox where body = 'retry me'`);
    expect(sent).toEqual({ status: 'sent', attempts: 2 });
  });

  it('gives up at once on a number the provider refuses (4xx)', async () => {
    stub.answers.push(400);
    await queue('+61412000002', 'bad number');
    expect(await drainSms(t.ctx, sender())).toEqual({ sent: 0, retried: 0, failed: 1 });
    const [row] = await query<{ status: string }>(`select status from sms_outbox where body = 'bad number'`);
    expect(row!.status).toBe('failed');
  });

  it('texts "Go to bay" when the dockmaster calls a checked-in truck to its bay', async () => {
    t.clock.set('2026-12-02T10:00:00Z');
    const withPhone = await checkedIn(t, '2026-12-02T10:00:00Z', '+61 400 111 222');
    const noPhone = await checkedIn(t, '2026-12-02T10:00:00Z', null);
    for (const b of [withPhone, noPhone]) {
      await applyTransition(t.ctx, { bookingId: b.id, orgId: b.orgId, to: 'in_progress' }, { kind: 'dockmaster', user: null });
    }
    const rows = await query<{ kind: string; to_phone: string; body: string }>(`select kind, to_phone, body from sms_outbox where kind = 'booking.go_to_bay'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ to_phone: '+61400111222' });
    expect(rows[0]!.body).toMatch(new RegExp(`^Baywise: Go to bay ${withPhone.bayName} now \\(.+, booking TSR-SMS-\\d+\\)\\.$`));
    stub.received.length = 0;
    await drainSms(t.ctx, sender());
    expect(stub.received.map((r) => r.form.To)).toEqual(['+61400111222']);
  });

  it('queues and sends nothing when SMS is not configured', async () => {
    const off = await createTestApp(kind, { now: '2026-12-03T09:00:00Z' });
    try {
      await seedDemoDataIfEmpty(off.ctx);
      expect(off.config.sms).toBeUndefined();
      const b = await checkedIn(off, '2026-12-03T09:00:00Z', '+61 400 333 444');
      await applyTransition(off.ctx, { bookingId: b.id, orgId: b.orgId, to: 'in_progress' }, { kind: 'dockmaster', user: null });
      off.clock.set('2026-12-03T22:00:00Z');
      const run = await sendDueReminders(off.ctx);
      expect(run.sms).toBe(0);
      expect(await off.ctx.database.query(`select id from sms_outbox`)).toEqual([]);
      expect(await off.ctx.database.query(`select booking_id from booking_reminders where channel = 'sms'`)).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
