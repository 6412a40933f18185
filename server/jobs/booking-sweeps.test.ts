import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { applyTransitionInTx } from '../modules/bookings/lifecycle.service';
import { sweepNoShows, sweepOverstays } from './booking-sweeps';
import { bossExecutor, startJobRunner } from './job-runner';

// The clock-driven lifecycle moves with a frozen clock, and the job runner that runs them: on
// pg-boss over our own connection, where of several workers exactly one takes each job.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('booking sweeps and the job runner on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let siteId: string;
  let bayId: string;
  let seq = 0;
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const booking = async (status: string, start: string, minutes = 60) => {
    seq += 1;
    const end = new Date(Date.parse(start) + minutes * 60_000).toISOString();
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source)
       values ($1, $2, $3, $4, 'Sweep Freight', 'sweep@example.test', $5, $6, $5, $6, 'rigid', $7, 3500, 3.5, $8, 'admin') returning id`,
      [acmeId, siteId, bayId, `TSR-SWEEP-${seq}`, start, end, `SW${seq}`, status],
    );
    return row!.id;
  };
  const statusOf = async (id: string) => (await query<{ status: string }>(`select status from bookings where id = $1`, [id]))[0]!.status;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    siteId = (await query<{ id: string }>(`insert into sites (org_id, name) values ($1, 'Sweep Yard') returning id`, [acmeId]))[0]!.id;
    bayId = (await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'SW-1', 5) returning id`, [acmeId, siteId]))[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks an approved booking a no-show after its window and grace, once, as the system', async () => {
    const late = await booking('approved', '2026-12-01T08:00:00Z');
    const arrived = await booking('checked_in', '2026-12-01T10:00:00Z');
    t.clock.set('2026-12-01T08:44:59Z'); // 30 min window + 15 min grace not over yet
    await sweepNoShows(t.ctx);
    expect(await statusOf(late)).toBe('approved');
    t.clock.set('2026-12-01T08:45:00Z');
    expect(await sweepNoShows(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await statusOf(late)).toBe('no_show');
    expect(await sweepNoShows(t.ctx)).toBe(0); // idempotent
    expect(await statusOf(arrived)).toBe('checked_in');
    const [audit] = await query<{ actor_role: string; actor_id: string | null; details: Record<string, unknown> }>(
      `select actor_role, actor_id, details from audit_log where resource_id = $1 and action = 'booking.no_show'`,
      [late],
    );
    expect(audit).toMatchObject({ actor_role: 'system', actor_id: null, details: { from_status: 'approved', status: 'no_show', actor: 'system' } });
    const [row] = await query<{ no_show_at: Date }>(`select no_show_at from bookings where id = $1`, [late]);
    expect(new Date(row!.no_show_at).toISOString()).toBe('2026-12-01T08:45:00.000Z');
  });

  it('tells the haulier of the no-show it marked', async () => {
    const id = await booking('approved', '2026-12-04T08:00:00Z');
    t.clock.set('2026-12-04T08:45:00Z');
    await sweepNoShows(t.ctx);
    expect(await statusOf(id)).toBe('no_show');
    const [row] = await query<{ tsr_number: string }>(`select tsr_number from bookings where id = $1`, [id]);
    const mail = (await t.outbox()).filter((m) => m.subject === `Missed booking – ${row!.tsr_number}`);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('was closed as a no-show');
  });

  it('refuses the system’s clock-bound moves before their time, whoever asks, and the sweep leaves a booking days ahead alone', async () => {
    const ahead = await booking('approved', '2026-12-10T08:00:00Z');
    const atBay = await booking('in_progress', '2026-12-10T10:00:00Z');
    t.clock.set('2026-12-07T08:00:00Z');
    await sweepNoShows(t.ctx);
    await sweepOverstays(t.ctx);
    expect(await statusOf(ahead)).toBe('approved');
    expect(await statusOf(atBay)).toBe('in_progress');
    const system = { kind: 'system' as const, user: null };
    const move = (bookingId: string, to: 'no_show' | 'overstay' | 'checked_in') =>
      t.ctx.database.db.transaction((tx) => applyTransitionInTx(t.ctx, tx, { bookingId, orgId: acmeId, to }, system));
    await expect(move(ahead, 'no_show')).rejects.toMatchObject({ statusCode: 409, code: 'outside_time_window' });
    await expect(move(ahead, 'checked_in')).rejects.toMatchObject({ statusCode: 409, code: 'outside_check_in_window' }); // a camera's automatic check-in
    await expect(move(atBay, 'overstay')).rejects.toMatchObject({ statusCode: 409, code: 'outside_time_window' });
    expect(await statusOf(ahead)).toBe('approved');
    expect(await statusOf(atBay)).toBe('in_progress');
  });

  it('marks an in-progress booking an overstay 30 minutes past its end', async () => {
    const id = await booking('in_progress', '2026-12-02T08:00:00Z', 60);
    t.clock.set('2026-12-02T09:29:00Z');
    await sweepOverstays(t.ctx);
    expect(await statusOf(id)).toBe('in_progress');
    t.clock.set('2026-12-02T09:30:00Z');
    await sweepOverstays(t.ctx);
    expect(await statusOf(id)).toBe('overstay');
    expect(await sweepOverstays(t.ctx)).toBe(0);
  });

  it('runs the sweeps as a queued job', async () => {
    const id = await booking('approved', '2026-12-03T08:00:00Z');
    t.clock.set('2026-12-03T09:00:00Z');
    const runner = await startJobRunner(t.ctx, { schedule: false, pollingIntervalSeconds: 0.5 });
    try {
      expect(await runner.sweepNow()).toBeTruthy();
      await expect.poll(() => statusOf(id), { timeout: 15_000, interval: 100 }).toBe('no_show');
    } finally {
      await runner.stop();
    }
  });

  it('gives each job to exactly one of several workers', async () => {
    const queue = 'test-exactly-once';
    const bosses = [new PgBoss({ db: bossExecutor(t.ctx.database), schema: 'pgboss', supervise: false, schedule: false }), new PgBoss({ db: bossExecutor(t.ctx.database), schema: 'pgboss', supervise: false, schedule: false })];
    const handled: string[] = [];
    try {
      for (const boss of bosses) await boss.start();
      await bosses[0]!.createQueue(queue, { name: queue });
      for (const boss of bosses) {
        await boss.work(queue, { pollingIntervalSeconds: 0.5, batchSize: 3 }, async (jobs) => {
          for (const job of jobs) handled.push(job.id);
        });
      }
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await bosses[i % 2]!.send(queue, { i }))!);
      await expect.poll(() => handled.length, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(20);
      expect([...handled].sort()).toEqual([...ids].sort());
    } finally {
      for (const boss of bosses) await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
    }
  });
});
