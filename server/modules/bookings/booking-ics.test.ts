import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { signAccessToken } from '../../auth/tokens';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { manageTokenFor } from './manage-token';

// Issue 22 item 4: every .ics of a booking's mails is one calendar entry — the same UID, a SEQUENCE
// that grows with every change — and the cancellation mail removes it (METHOD:CANCEL,
// STATUS:CANCELLED), so the haulier's calendar drops the slot.

const NOW = '2026-11-23T00:00:00Z';

type Ics = { method: string; uid: string; sequence: number; status: string; dtstart: string; contentType: string };

/** The calendar attachment of a mail, unfolded and read line by line. */
function icsOf(mail: ParsedMail): Ics | null {
  const a = mail.attachments.find((x) => x.contentType === 'text/calendar' || x.filename?.endsWith('.ics'));
  if (!a) return null;
  const lines = a.content.toString().replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  const prop = (name: string) => lines.find((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`))?.replace(/^[^:]*:/, '') ?? '';
  return {
    method: prop('METHOD'),
    uid: prop('UID'),
    sequence: Number(prop('SEQUENCE')),
    status: prop('STATUS'),
    dtstart: prop('DTSTART'),
    contentType: String(a.contentType),
  };
}

describe.each(databaseKinds)('booking calendar files on %s', (kind) => {
  let t: TestApp;
  let org: { id: string };
  let admin: Record<string, string>;
  const seen = new Set<string>();

  /** The mails delivered since the last call (the frozen clock gives them one time stamp: known by Message-ID). */
  const newMails = async () => {
    const fresh = (await t.outbox()).filter((m) => !seen.has(m.messageId ?? ''));
    for (const m of fresh) seen.add(m.messageId ?? '');
    return fresh;
  };
  const haulierIcs = async (to: string) => {
    const mails = (await newMails()).filter((m) => JSON.stringify(m.to).includes(to));
    return mails.map((m) => ({ subject: m.subject ?? '', ics: icsOf(m) }));
  };

  const submit = (overrides: Record<string, unknown>) => {
    const form = new FormData();
    form.append(
      'data',
      JSON.stringify({
        orgId: org.id,
        tsrNumber: 'TSR-ICS-1',
        tsrSystemType: 'servicenow',
        tsrUrl: '',
        tenantName: 'Fast Freight Pty Ltd',
        contactName: 'Jo Driver',
        tenantEmail: 'jo@fastfreight.example',
        tenantPhone: '',
        bookingType: 'delivery',
        date: '2026-11-24',
        slot: '09:00',
        expectedDurationMin: 60,
        vehicleType: 'rigid',
        vehicleRegistration: 'ICS123',
        vehicleHeightM: 3.9,
        vehicleLengthM: 12,
        specialAccessNeeds: [],
        goodsDescription: 'Pallets',
        driverInductionCompleted: true,
        termsAccepted: true,
        notes: '',
        ...overrides,
      }),
    );
    return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
  };
  const versionOf = async (id: string) => (await t.ctx.database.query<{ version: number }>('select version from bookings where id = $1', [id]))[0]!.version;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    org = await createOrg(db, { name: 'Calendar Org' });
    const site = await createSite(db, org.id, { name: 'Dock One', timeZone: 'Australia/Sydney' });
    await createBay(db, site, { name: 'B-1', heightClearanceM: 5.5 });
    await createBay(db, site, { name: 'B-2', heightClearanceM: 5.5 });
    const user = await createUser(db, { email: 'admin@calendar.example' });
    await addMember(db, org.id, user.id, 'org_admin');
    const [session] = await db.query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '1 day') returning id`, [user.id, NOW]);
    const { token } = await signAccessToken(t.ctx, { userId: user.id, sessionId: session!.id, email: 'admin@calendar.example' });
    admin = { authorization: `Bearer ${token}` };
  });
  afterAll(() => t.close());

  it('create → haulier reschedule → haulier cancel: one UID, SEQUENCE growing, REQUEST then CANCEL', async () => {
    await newMails();
    const created = await submit({ tsrNumber: 'TSR-ICS-1', tenantEmail: 'one@haulier.example' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const token = manageTokenFor(t.ctx.authSecret, id);

    const [received] = await haulierIcs('one@haulier.example');
    expect(received!.ics).toMatchObject({ method: 'REQUEST', uid: `${id}@baywise`, status: 'TENTATIVE', dtstart: '20261123T220000Z' });
    expect(received!.ics!.contentType).toBe('text/calendar');

    const moved = await t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/reschedule`, payload: { date: '2026-11-25', slot: '11:00' } });
    expect(moved.statusCode).toBe(200);
    const [movedMail] = await haulierIcs('one@haulier.example');
    expect(movedMail!.ics).toMatchObject({ method: 'REQUEST', uid: `${id}@baywise`, status: 'TENTATIVE', dtstart: '20261125T000000Z' });
    expect(movedMail!.ics!.sequence).toBeGreaterThan(received!.ics!.sequence);

    const cancelled = await t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/cancel`, payload: { reason: 'Plans changed' } });
    expect(cancelled.statusCode).toBe(200);
    const [cancelMail] = await haulierIcs('one@haulier.example');
    expect(cancelMail!.subject).toContain('Booking cancelled');
    expect(cancelMail!.ics).toMatchObject({ method: 'CANCEL', uid: `${id}@baywise`, status: 'CANCELLED', dtstart: '20261125T000000Z' });
    expect(cancelMail!.ics!.sequence).toBeGreaterThan(movedMail!.ics!.sequence);
    expect(cancelMail!.ics!.sequence).toBe(await versionOf(id));
  });

  it('admin approve → admin cancel: CONFIRMED, then CANCEL with the same UID and a higher SEQUENCE', async () => {
    await newMails();
    const id = (await submit({ tsrNumber: 'TSR-ICS-2', tenantEmail: 'two@haulier.example', slot: '10:00' })).json().id as string;
    const [received] = await haulierIcs('two@haulier.example');
    const url = `/api/orgs/${org.id}/bookings/${id}/transitions`;
    expect((await t.app.inject({ method: 'POST', url, headers: admin, payload: { to: 'approved', version: await versionOf(id) } })).statusCode).toBe(200);
    const [approved] = await haulierIcs('two@haulier.example');
    expect(approved!.ics).toMatchObject({ method: 'REQUEST', uid: `${id}@baywise`, status: 'CONFIRMED' });
    expect(approved!.ics!.sequence).toBeGreaterThan(received!.ics!.sequence);

    const cancel = await t.app.inject({ method: 'POST', url, headers: admin, payload: { to: 'cancelled', version: await versionOf(id), reason: 'Dock closed' } });
    expect(cancel.statusCode).toBe(200);
    const [cancelled] = await haulierIcs('two@haulier.example');
    expect(cancelled!.subject).toContain('cancelled by the site');
    expect(cancelled!.ics).toMatchObject({ method: 'CANCEL', uid: `${id}@baywise`, status: 'CANCELLED' });
    expect(cancelled!.ics!.sequence).toBeGreaterThan(approved!.ics!.sequence);
  });

  it('a declined request withdraws its tentative entry', async () => {
    await newMails();
    const id = (await submit({ tsrNumber: 'TSR-ICS-3', tenantEmail: 'three@haulier.example', slot: '12:00' })).json().id as string;
    const [received] = await haulierIcs('three@haulier.example');
    const declined = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${org.id}/bookings/${id}/transitions`,
      headers: admin,
      payload: { to: 'declined', version: await versionOf(id), reason: 'No capacity' },
    });
    expect(declined.statusCode).toBe(200);
    const [mail] = await haulierIcs('three@haulier.example');
    expect(mail!.ics).toMatchObject({ method: 'CANCEL', uid: `${id}@baywise`, status: 'CANCELLED' });
    expect(mail!.ics!.sequence).toBeGreaterThan(received!.ics!.sequence);
  });
});
