import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/org-blackouts';
import { createBay, createOrg, createSite } from '../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { extendBlackoutSeries } from './blackout-expansion';
import { JOB_QUEUES, startJobRunner } from './job-runner';

// The job that keeps recurring blackouts written up to the horizon (today + 730 days at each
// site) as the days go by: only series that are behind, only the new dates, never twice.

const NOW = '2026-11-23T00:00:00Z'; // 11:00 on 23 Nov in Sydney

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

describe.each(databaseKinds)('recurring blackout expansion job on %s', (kind) => {
  let t: TestApp;
  let org: { id: string };
  let site: { id: string };
  let bayId: string;
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const series = async (values: { rrule: string; startsOn: string; startLocal: string; until?: string | null; expandedUntil?: string | null }) => {
    const [row] = await query<{ id: string }>(
      `insert into blackout_series (org_id, site_id, bay_id, rrule, starts_on, start_local, duration_min, until, expanded_until, reason)
       values ($1, $2, $3, $4, $5, $6, 60, $7, $8, 'Job test') returning id`,
      [org.id, site.id, bayId, values.rrule, values.startsOn, values.startLocal, values.until ?? null, values.expandedUntil ?? null],
    );
    return row!.id;
  };
  const occurrences = async (seriesId: string) =>
    (await query<{ start_time: Date }>(`select start_time from blackouts where series_id = $1 order by start_time`, [seriesId])).map((r) => new Date(r.start_time).toISOString());
  const expandedUntil = async (seriesId: string) => (await query<{ d: string }>(`select expanded_until::text as d from blackout_series where id = $1`, [seriesId]))[0]!.d;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    org = await createOrg(t.ctx.database);
    site = await createSite(t.ctx.database, org.id, { timeZone: 'Australia/Sydney' });
    bayId = (await createBay(t.ctx.database, { id: site.id, orgId: org.id })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes only the dates a series is missing up to today + 730 days, and nothing when run again', async () => {
    const horizon = addDays('2026-11-23', 730);
    // Written up to 30 Nov by the API; the job goes on from 1 Dec.
    const daily = await series({ rrule: 'FREQ=DAILY;INTERVAL=1', startsOn: '2026-11-23', startLocal: '09:00', expandedUntil: '2026-11-30' });
    // Never written: from its first day (today's 09:00 has passed in Sydney, so tomorrow on).
    const weekly = await series({ rrule: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TU', startsOn: '2026-11-23', startLocal: '09:00', until: '2026-12-08' });
    // Complete already.
    const done = await series({ rrule: 'FREQ=DAILY', startsOn: '2026-11-23', startLocal: '09:00', until: '2026-12-01', expandedUntil: '2026-12-01' });

    const written = await extendBlackoutSeries(t.ctx);
    expect(written).toBe(daysBetween('2026-12-01', horizon) + 1 + 5);
    const dailyRows = await occurrences(daily);
    expect(dailyRows[0]).toBe('2026-11-30T22:00:00.000Z'); // 1 Dec 09:00 Sydney (summer time)
    expect(dailyRows.at(-1)).toBe('2028-11-21T22:00:00.000Z'); // 22 Nov 2028 09:00
    expect(await expandedUntil(daily)).toBe(horizon);
    expect(await occurrences(weekly)).toEqual([
      '2026-11-23T22:00:00.000Z', // Tue 24 Nov 09:00 (Monday's has passed)
      '2026-11-29T22:00:00.000Z',
      '2026-11-30T22:00:00.000Z',
      '2026-12-06T22:00:00.000Z',
      '2026-12-07T22:00:00.000Z', // Tue 8 Dec: until is inclusive
    ]);
    expect(await expandedUntil(weekly)).toBe('2026-12-08');
    expect(await occurrences(done)).toEqual([]);

    expect(await extendBlackoutSeries(t.ctx)).toBe(0);

    // A deleted occurrence stays deleted; the next day adds one date.
    await query(`delete from blackouts where series_id = $1 and start_time = '2026-12-01T22:00:00Z'`, [daily]);
    t.clock.set('2026-11-24T00:00:00Z');
    expect(await extendBlackoutSeries(t.ctx)).toBe(1);
    const after = await occurrences(daily);
    expect(after).not.toContain('2026-12-01T22:00:00.000Z');
    expect(after.at(-1)).toBe('2028-11-22T22:00:00.000Z');
    expect(await expandedUntil(daily)).toBe(addDays('2026-11-24', 730));
    await query(`delete from blackout_series where id in ($1, $2, $3)`, [daily, weekly, done]);
  });

  it('runs as a queued job', async () => {
    t.clock.set('2026-11-25T00:00:00Z');
    const id = await series({ rrule: 'FREQ=WEEKLY;BYDAY=FR', startsOn: '2026-11-27', startLocal: '06:00', until: '2026-12-31' });
    const runner = await startJobRunner(t.ctx, { schedule: false, pollingIntervalSeconds: 0.5 });
    try {
      expect(await runner.boss.send(JOB_QUEUES.blackoutExpansion, {})).toBeTruthy();
      await expect.poll(() => expandedUntil(id), { timeout: 15_000, interval: 100 }).toBe('2026-12-31');
      expect(await occurrences(id)).toHaveLength(5);
    } finally {
      await runner.stop();
    }
  });
});
