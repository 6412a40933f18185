import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { sendDueReminders } from '../../jobs/booking-reminders';
import { signAccessToken } from '../../auth/tokens';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// Issue 27 item 3: every e-mail and text to a haulier is in the language the booking was made in
// (the request's, else the organization's portal default, else English); staff mail stays English.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('the booking language on %s', (kind) => {
  let t: TestApp;
  let org: { id: string };
  let otherOrg: { id: string };
  let admin: Record<string, string>;
  const seen = new Set<string>();

  const newMails = async () => {
    const fresh = (await t.outbox()).filter((m) => !seen.has(m.messageId ?? ''));
    for (const m of fresh) seen.add(m.messageId ?? '');
    return fresh;
  };
  const mailsTo = async (to: string): Promise<ParsedMail[]> => (await newMails()).filter((m) => JSON.stringify(m.to).includes(to));

  const submit = (orgId: string, overrides: Record<string, unknown>) => {
    const form = new FormData();
    form.append(
      'data',
      JSON.stringify({
        orgId,
        tsrNumber: 'TSR-L-1',
        tenantName: 'Szybki Transport',
        contactName: 'Ola',
        tenantEmail: 'ola@haulier.example',
        tenantPhone: '+48 600 100 200',
        bookingType: 'delivery',
        date: '2026-11-24',
        slot: '09:00',
        expectedDurationMin: 60,
        vehicleType: 'rigid',
        vehicleRegistration: 'WX12345',
        vehicleHeightM: 3.9,
        driverInductionCompleted: true,
        termsAccepted: true,
        ...overrides,
      }),
    );
    return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
  };
  const languageOf = async (id: string) => (await t.ctx.database.query<{ language: string }>('select language from bookings where id = $1', [id]))[0]!.language;
  const versionOf = async (id: string) => (await t.ctx.database.query<{ version: number }>('select version from bookings where id = $1', [id]))[0]!.version;
  const approve = async (id: string) =>
    t.app.inject({ method: 'POST', url: `/api/orgs/${org.id}/bookings/${id}/transitions`, headers: admin, payload: { to: 'approved', version: await versionOf(id) } });

  beforeAll(async () => {
    t = await createTestApp(kind, {
      now: NOW,
      // Texts are queued only when SMS is configured; nothing sends them in these tests.
      env: { SMS_URL: 'http://127.0.0.1:9/', SMS_ACCOUNT_SID: 'AC0123', SMS_AUTH_TOKEN: 'secret-token', SMS_FROM: '+15550001111' },
    });
    const db = t.ctx.database;
    org = await createOrg(db, { name: 'Language Org' });
    const site = await createSite(db, org.id, { name: 'Magazyn', timeZone: 'Europe/Warsaw' });
    for (const name of ['R-1', 'R-2', 'R-3']) await createBay(db, site, { name, heightClearanceM: 5.5 });
    otherOrg = await createOrg(db, { name: 'Default Language Org' });
    const otherSite = await createSite(db, otherOrg.id, { name: 'Entrepôt', timeZone: 'Europe/Paris' });
    await createBay(db, otherSite, { name: 'Q-1', heightClearanceM: 5.5 });
    const user = await createUser(db, { email: 'admin@language.example' });
    await addMember(db, org.id, user.id, 'org_admin');
    await addMember(db, otherOrg.id, user.id, 'org_admin');
    const [session] = await db.query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '1 day') returning id`, [user.id, NOW]);
    const { token } = await signAccessToken(t.ctx, { userId: user.id, sessionId: session!.id, email: 'admin@language.example' });
    admin = { authorization: `Bearer ${token}` };
  });
  afterAll(() => t.close());

  it('a booking made in Polish gets its confirmation in Polish, with a Polish date; the admins’ notice stays English', async () => {
    await newMails();
    const created = await submit(org.id, { tsrNumber: 'TSR-PL-1', tenantEmail: 'pl@haulier.example', language: 'pl' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(await languageOf(id)).toBe('pl');
    const mails = await newMails();
    const [mail] = mails.filter((m) => JSON.stringify(m.to).includes('pl@haulier.example'));
    expect(mail!.subject).toBe('Otrzymano prośbę o rezerwację – TSR-PL-1');
    expect(mail!.text).toContain('Dzień dobry Ola,');
    expect(mail!.text).toContain('Otrzymaliśmy Twoją prośbę o rezerwację rampy. Numer referencyjny: TSR-PL-1');
    expect(mail!.text).toContain('Termin: wt., 24 lis 2026, 09:00–10:00 (Europe/Warsaw)');
    expect(mail!.text).toContain('Pojazd: Ciężarówka (solówka), WX12345');
    expect(mail!.html).toContain('<html lang="pl">');
    expect(mail!.html).toContain('Kod przyjazdu: <strong');
    const ics = mail!.attachments.find((a) => a.filename === 'booking.ics')!.content.toString();
    expect(ics).toContain('SUMMARY:Rezerwacja rampy TSR-PL-1 – Magazyn');
    const notice = mails.find((m) => m.subject?.startsWith('New booking request TSR-PL-1'));
    expect(notice!.text).toContain('A new booking request is waiting for review at Language Org.');
  });

  it('a request without a language is in English under the default portal settings', async () => {
    await newMails();
    const created = await submit(org.id, { tsrNumber: 'TSR-EN-1', tenantEmail: 'en@haulier.example', slot: '10:00' });
    expect(created.statusCode).toBe(201);
    expect(await languageOf(created.json().id)).toBe('en');
    const [mail] = await mailsTo('en@haulier.example');
    expect(mail!.subject).toBe('Booking request received – TSR-EN-1');
    expect(mail!.text).toContain('When: Tue 24 Nov 2026, 10:00–11:00 (Europe/Warsaw)');
  });

  it('refuses an unknown language with the language message', async () => {
    const res = await submit(org.id, { tsrNumber: 'TSR-XX-1', language: 'xx', slot: '11:00' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Choose English, Deutsch, Polski or Français');
  });

  it('the organization’s portal default applies when the request names no language, and the portal is told it', async () => {
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/orgs/${otherOrg.id}/settings`, headers: admin, payload: { portal: { defaultLanguage: 'fr' } } });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().settings.portal).toEqual({ defaultLanguage: 'fr' });
    const bad = await t.app.inject({ method: 'PATCH', url: `/api/orgs/${otherOrg.id}/settings`, headers: admin, payload: { portal: { defaultLanguage: 'it' } } });
    expect(bad.statusCode).toBe(400);
    const info = await t.app.inject({ method: 'GET', url: '/api/public/booking-info' });
    const orgs = info.json().organizations as Array<{ id: string; defaultLanguage: string }>;
    expect(orgs.find((o) => o.id === otherOrg.id)!.defaultLanguage).toBe('fr');
    expect(orgs.find((o) => o.id === org.id)!.defaultLanguage).toBe('en');

    await newMails();
    const created = await submit(otherOrg.id, { tsrNumber: 'TSR-FR-1', tenantEmail: 'fr@haulier.example' });
    expect(created.statusCode).toBe(201);
    expect(await languageOf(created.json().id)).toBe('fr');
    const [mail] = await mailsTo('fr@haulier.example');
    expect(mail!.subject).toBe('Demande de réservation reçue – TSR-FR-1');
    expect(mail!.text).toContain('Quand : mar. 24 nov. 2026, 09:00–10:00 (Europe/Paris)');
    // The request's own language wins over the default.
    const english = await submit(otherOrg.id, { tsrNumber: 'TSR-FR-2', tenantEmail: 'fr2@haulier.example', slot: '11:00', language: 'en' });
    expect(await languageOf(english.json().id)).toBe('en');
  });

  it('approval and reminder in German by e-mail, the reminder text in French', async () => {
    await newMails();
    const de = (await submit(org.id, { tsrNumber: 'TSR-DE-1', tenantEmail: 'de@haulier.example', tenantPhone: '+49 151 1234567', slot: '12:00', language: 'de' })).json().id as string;
    const fr = (await submit(org.id, { tsrNumber: 'TSR-FR-3', tenantEmail: 'fr3@haulier.example', tenantPhone: '+33 6 12 34 56 78', slot: '13:00', language: 'fr' })).json().id as string;
    expect((await approve(de)).statusCode).toBe(200);
    expect((await approve(fr)).statusCode).toBe(200);
    const [approved] = (await mailsTo('de@haulier.example')).filter((m) => m.subject?.startsWith('Buchung bestätigt'));
    expect(approved!.subject).toBe('Buchung bestätigt – TSR-DE-1');
    expect(approved!.text).toContain('Ihre Buchung TSR-DE-1 ist bestätigt: Di., 24. Nov. 2026, 12:00–13:00 (Europe/Warsaw) bei Magazyn, Rampe');
    expect(approved!.text).toContain('Ankunftscode: ');

    // 24 hours before the German booking's start (11:00 UTC).
    t.clock.set('2026-11-23T11:00:30Z');
    await sendDueReminders(t.ctx);
    const [reminder] = await mailsTo('de@haulier.example');
    expect(reminder!.subject).toBe('Erinnerung: Buchung TSR-DE-1 morgen – Magazyn');
    expect(reminder!.text).toContain('Eine Erinnerung an Ihre Rampenbuchung TSR-DE-1 bei Language Org, morgen.');
    expect(reminder!.text).toContain('Verspätet? Teilen Sie dem Standort mit, wann Sie ankommen:');

    t.clock.set('2026-11-23T12:00:30Z');
    await sendDueReminders(t.ctx);
    const texts = await t.ctx.database.query<{ to_phone: string; body: string }>(`select to_phone, body from sms_outbox where kind = 'booking.reminder' order by created_at`);
    expect(texts.find((s) => s.to_phone === '+491511234567')!.body).toMatch(/^Baywise-Erinnerung: Buchung TSR-DE-1 bei Magazyn, Di\., 24\. Nov\. 2026, 12:00–13:00/);
    expect(texts.find((s) => s.to_phone === '+33612345678')!.body).toMatch(
      /^Rappel Baywise : réservation TSR-FR-3 à Magazyn, mar\. 24 nov\. 2026, 13:00–14:00 \(Europe\/Warsaw\), quai R-\d\. Code d’arrivée [A-Z0-9 -]+\. En retard \?/,
    );
  });
});
