import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import type { AppContext } from '../context';
import {
  deliverDueMail,
  drainMail,
  enqueueMail,
  MAX_MAIL_ATTEMPTS,
  MAX_PASS_MS,
  RECORD_AFTER_MS,
  retryDelayMs,
  type MailPass,
  type MailRenderers,
} from './outbox';

describe.each(databaseKinds)('mail outbox on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { now: '2026-11-23T09:00:00Z' });
  });
  afterAll(() => t.close());

  const row = async (kindName: string) =>
    (
      await t.ctx.database.query<{ status: string; attempts: number; next_attempt_at: Date; last_error: string | null }>(
        'select status, attempts, next_attempt_at, last_error from mail_outbox where kind = $1',
        [kindName],
      )
    )[0]!;

  it('retries a failing delivery with growing back-off, then marks it failed', async () => {
    let up = false;
    const renderers: MailRenderers = {
      'test.flaky': async () => {
        if (!up) throw new Error('SMTP server unreachable');
        return { to: 'ops@example.test', subject: 'Flaky but delivered', text: 'hello' };
      },
      'test.never': async () => {
        throw new Error('always broken');
      },
    };
    await t.ctx.database.db.transaction((tx) =>
      enqueueMail(tx, t.clock.now(), [
        { kind: 'test.flaky', payload: {} },
        { kind: 'test.never', payload: {} },
      ]),
    );

    expect(await deliverDueMail(t.ctx, renderers)).toEqual({ sent: 0, retried: 2, failed: 0 });
    const first = await row('test.flaky');
    expect(first).toMatchObject({ status: 'pending', attempts: 1, last_error: 'SMTP server unreachable' });
    expect(new Date(first.next_attempt_at).getTime()).toBe(t.clock.now().getTime() + retryDelayMs(1));

    // Not due yet: nothing is attempted.
    expect(await deliverDueMail(t.ctx, renderers)).toEqual({ sent: 0, retried: 0, failed: 0 });

    up = true;
    t.clock.advance(retryDelayMs(1));
    await deliverDueMail(t.ctx, renderers);
    expect(await row('test.flaky')).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect((await t.outbox()).map((m) => m.subject)).toContain('Flaky but delivered');

    for (let attempt = 2; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
      t.clock.advance(retryDelayMs(attempt));
      await deliverDueMail(t.ctx, renderers);
    }
    expect(await row('test.never')).toMatchObject({ status: 'failed', attempts: MAX_MAIL_ATTEMPTS });
  });

  it('never lets two workers send the same row', async () => {
    let rendered = 0;
    const renderers: MailRenderers = {
      'test.once': async () => {
        rendered++;
        return { to: 'ops@example.test', subject: 'Only once', text: 'hello' };
      },
    };
    await t.ctx.database.db.transaction((tx) => enqueueMail(tx, t.clock.now(), [{ kind: 'test.once', payload: {} }]));
    await Promise.all([deliverDueMail(t.ctx, renderers), deliverDueMail(t.ctx, renderers), deliverDueMail(t.ctx, renderers)]);
    expect(rendered).toBe(1);
  });

  it('stops after the message it is sending when the worker stops (SIGTERM), and leaves the rest queued at once', async () => {
    let isStopping = false;
    const sent: string[] = [];
    const renderers: MailRenderers = {
      'test.stop': async (_ctx, payload) => {
        sent.push(String(payload.n));
        isStopping = true; // the signal arrives while the first message is being sent
        return { to: 'ops@example.test', subject: `Stop ${payload.n}`, text: 'hello' };
      },
    };
    await t.ctx.database.db.transaction((tx) =>
      enqueueMail(tx, t.clock.now(), [1, 2, 3].map((n) => ({ kind: 'test.stop', payload: { n } }))),
    );
    expect(await drainMail(t.ctx, renderers, () => isStopping)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(sent).toHaveLength(1);
    // The other two are free for another node now, not after the lease, and their attempt is not counted.
    const rest = await t.ctx.database.query<{ attempts: number; locked_until: Date | null }>(
      `select attempts, locked_until from mail_outbox where kind = 'test.stop' and status = 'pending'`,
    );
    expect(rest).toEqual([
      { attempts: 0, locked_until: null },
      { attempts: 0, locked_until: null },
    ]);
    expect(await deliverDueMail(t.ctx, renderers)).toMatchObject({ sent: 2 });
  });
  /** The test app's context with every statement it sends to the database counted. */
  const counting = () => {
    const statements: string[] = [];
    const ctx: AppContext = {
      ...t.ctx,
      database: {
        ...t.ctx.database,
        query: (text, params) => {
          statements.push(text.trim().split(/\s+/).slice(0, 2).join(' '));
          return t.ctx.database.query(text, params);
        },
      },
    };
    return { ctx, statements };
  };
  const rowsOf = (kindName: string) =>
    t.ctx.database.query<{ id: string; status: string; attempts: number; message_id: string | null; locked_until: Date | null; last_error: string | null }>(
      'select id, status, attempts, message_id, locked_until, last_error from mail_outbox where kind = $1 order by created_at, id',
      [kindName],
    );

  it('sends a batch with one statement to claim it and one to record it, each row with its own Message-ID', async () => {
    const renderers: MailRenderers = {
      'test.batch': async (_ctx, payload) => ({ to: 'ops@example.test', subject: `Batch ${payload.n}`, text: 'hello' }),
    };
    await t.ctx.database.db.transaction((tx) =>
      enqueueMail(tx, t.clock.now(), Array.from({ length: 12 }, (_, n) => ({ kind: 'test.batch', payload: { n } }))),
    );
    const { ctx, statements } = counting();
    expect(await deliverDueMail(ctx, renderers, 50)).toEqual({ sent: 12, retried: 0, failed: 0 });
    expect(statements).toEqual(['update mail_outbox', 'update mail_outbox']);
    const rows = await rowsOf('test.batch');
    expect(rows).toHaveLength(12);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'sent', attempts: 1, locked_until: null, last_error: null, message_id: `<${r.id}@baywise.outbox>` });
    }
    const subjects = (await t.outbox()).map((m) => m.subject);
    expect(subjects.filter((s) => s?.startsWith('Batch '))).toHaveLength(12);
    // Nothing is left to claim: the next pass costs its one claim and sends nothing.
    expect(await deliverDueMail(ctx, renderers, 50)).toEqual({ sent: 0, retried: 0, failed: 0 });
  });

  it('records a pass of sent and failed rows in one statement each, keeping every row its own outcome', async () => {
    const renderers: MailRenderers = {
      'test.mixed': async (_ctx, payload) => {
        if (Number(payload.n) % 2 === 1) throw new Error(`mailbox ${payload.n} full`);
        return { to: 'ops@example.test', subject: `Mixed ${payload.n}`, text: 'hello' };
      },
    };
    await t.ctx.database.db.transaction((tx) =>
      enqueueMail(tx, t.clock.now(), [0, 1, 2, 3].map((n) => ({ kind: 'test.mixed', payload: { n } }))),
    );
    const { ctx, statements } = counting();
    expect(await deliverDueMail(ctx, renderers, 50)).toEqual({ sent: 2, retried: 2, failed: 0 });
    expect(statements).toHaveLength(3);
    const rows = await t.ctx.database.query<{ n: string; status: string; last_error: string | null; next_attempt_at: Date; locked_until: Date | null }>(
      `select payload->>'n' as n, status, last_error, next_attempt_at, locked_until from mail_outbox where kind = 'test.mixed' order by 1`,
    );
    expect(rows.map((r) => [r.n, r.status, r.last_error, r.locked_until])).toEqual([
      ['0', 'sent', null, null],
      ['1', 'pending', 'mailbox 1 full', null],
      ['2', 'sent', null, null],
      ['3', 'pending', 'mailbox 3 full', null],
    ]);
    expect(new Date(rows[1]!.next_attempt_at).getTime()).toBe(t.clock.now().getTime() + retryDelayMs(1));
    // The failed ones come back after their back-off, and only they.
    let rendered = 0;
    const fixed: MailRenderers = {
      'test.mixed': async (_ctx, payload) => {
        rendered++;
        return { to: 'ops@example.test', subject: `Mixed ${payload.n}`, text: 'hello' };
      },
    };
    t.clock.advance(retryDelayMs(1));
    expect(await deliverDueMail(t.ctx, fixed, 50)).toEqual({ sent: 2, retried: 0, failed: 0 });
    expect(rendered).toBe(2);
  });

  it('lets the rows of one pass share a read (memo), and does not keep a failed one', async () => {
    let loads = 0;
    let failNext = true;
    const renderers: MailRenderers = {
      'test.memo': async (_ctx, payload, _recipients, pass) => {
        const load = async () => {
          loads++;
          if (failNext) {
            failNext = false;
            throw new Error('database hiccup');
          }
          return `booking ${payload.booking}`;
        };
        const value = await (pass as MailPass).memo(`b:${payload.booking}`, load);
        return { to: 'ops@example.test', subject: `Memo ${value} ${payload.n}`, text: 'hello' };
      },
    };
    const mails = [
      { kind: 'test.memo', payload: { booking: 'A', n: 1 } }, // its read fails: retried later
      { kind: 'test.memo', payload: { booking: 'A', n: 2 } }, // reads again, and keeps it
      { kind: 'test.memo', payload: { booking: 'A', n: 3 } },
      { kind: 'test.memo', payload: { booking: 'B', n: 4 } },
    ];
    for (const mail of mails) {
      await t.ctx.database.db.transaction((tx) => enqueueMail(tx, t.clock.now(), [mail]));
      t.clock.advance(1); // delivered in this order
    }
    expect(await deliverDueMail(t.ctx, renderers, 50)).toEqual({ sent: 3, retried: 1, failed: 0 });
    expect(loads).toBe(3); // A (failed), A, B
    // A new pass reads afresh.
    t.clock.advance(retryDelayMs(1));
    expect(await deliverDueMail(t.ctx, renderers, 50)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(loads).toBe(4);
  });

  it('records what it sent before the next send once sending is slow, and never runs past half its lease', async () => {
    const seenBySecond: string[] = [];
    const renderers: MailRenderers = {
      'test.slow': async (ctx, payload) => {
        if (payload.n === 2) seenBySecond.push(...(await rowsOf('test.slow')).map((r) => r.status));
        // Each message takes a while to an SMTP server far away; the third one very long.
        t.clock.advance(payload.n === 3 ? MAX_PASS_MS : RECORD_AFTER_MS);
        return { to: 'ops@example.test', subject: `Slow ${payload.n}`, text: 'hello' };
      },
    };
    for (const n of [1, 2, 3, 4, 5]) {
      await t.ctx.database.db.transaction((tx) => enqueueMail(tx, t.clock.now(), [{ kind: 'test.slow', payload: { n } }]));
      t.clock.advance(1); // delivered in this order
    }
    expect(await deliverDueMail(t.ctx, renderers, 50)).toEqual({ sent: 3, retried: 0, failed: 0 });
    // While the second was being sent, the first was already recorded as sent.
    expect(seenBySecond).toEqual(['sent', 'pending', 'pending', 'pending', 'pending']);
    // After half the lease the pass stopped: the last two are free at once, their attempt not counted.
    const rows = await rowsOf('test.slow');
    expect(rows.map((r) => [r.status, r.attempts, r.locked_until])).toEqual([
      ['sent', 1, null],
      ['sent', 1, null],
      ['sent', 1, null],
      ['pending', 0, null],
      ['pending', 0, null],
    ]);
    expect(await deliverDueMail(t.ctx, renderers, 50)).toEqual({ sent: 2, retried: 0, failed: 0 });
  });
});
