import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { deliverDueMail, drainMail, enqueueMail, MAX_MAIL_ATTEMPTS, retryDelayMs, type MailRenderers } from './outbox';

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
});
