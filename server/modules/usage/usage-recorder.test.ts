import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { createUsageRecorder, type UsageRecorder } from './usage-recorder';

// The in-memory counting: nothing is written per call; a flush adds the counts to their
// (organization, UTC day, kind) rows; closing writes what is left.

describe.each(databaseKinds)('usage recorder on %s', (kind) => {
  let t: TestApp;
  let recorder: UsageRecorder;
  let orgA: string;
  let orgB: string;

  const counters = () =>
    t.ctx.database.query<{ org_id: string; day: string; kind: string; count: number }>(
      `select org_id, to_char(day, 'YYYY-MM-DD') as day, kind, count from usage_counters order by org_id = $1 desc, day, kind`,
      [orgA],
    );

  beforeAll(async () => {
    t = await createTestApp(kind, { now: '2026-11-23T23:59:59.000Z' });
    orgA = (await createOrg(t.ctx.database)).id;
    orgB = (await createOrg(t.ctx.database)).id;
    // A long interval: the test decides when to flush.
    recorder = createUsageRecorder(t.ctx, { intervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await recorder.close();
    await t.close();
  });

  it('adds the counts of each organization, day and kind in one flush, and only then', async () => {
    for (let i = 0; i < 3; i += 1) recorder.record(orgA, 'api_call');
    recorder.record(orgA, 'webhook_call');
    recorder.record(orgB, 'api_call');
    // An organization that does not exist (deleted meanwhile) and an id that is none are skipped.
    recorder.record('00000000-0000-4000-8000-000000000000', 'api_call');
    recorder.record('not-an-id', 'api_call');
    expect(await counters()).toEqual([]);
    await recorder.flush();
    expect(await counters()).toEqual([
      { org_id: orgA, day: '2026-11-23', kind: 'api_call', count: 3 },
      { org_id: orgA, day: '2026-11-23', kind: 'webhook_call', count: 1 },
      { org_id: orgB, day: '2026-11-23', kind: 'api_call', count: 1 },
    ]);
  });

  it('adds to the stored count, splits at UTC midnight, and never writes a batch twice when flushes overlap', async () => {
    recorder.record(orgA, 'api_call');
    t.clock.advance(1_000); // 2026-11-24 00:00:00 UTC
    recorder.record(orgA, 'api_call');
    recorder.record(orgA, 'api_call');
    await Promise.all([recorder.flush(), recorder.flush(), recorder.flush()]);
    const rows = (await counters()).filter((r) => r.org_id === orgA && r.kind === 'api_call');
    expect(rows).toEqual([
      { org_id: orgA, day: '2026-11-23', kind: 'api_call', count: 4 },
      { org_id: orgA, day: '2026-11-24', kind: 'api_call', count: 2 },
    ]);
  });

  it('writes what is left when it closes', async () => {
    const closing = createUsageRecorder(t.ctx, { intervalMs: 3_600_000 });
    closing.record(orgB, 'webhook_call');
    await closing.close();
    expect((await counters()).find((r) => r.org_id === orgB && r.kind === 'webhook_call')).toMatchObject({ day: '2026-11-24', count: 1 });
  });
});
