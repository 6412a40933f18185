import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { PDF_BYTES } from '../../test/files';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { randomUUID } from 'node:crypto';
import { linkKeysOf } from '../../../domain/org-tenants';
import { bookSlotFast } from './book-slot-fast';
import { orgRules } from './org-rules';
import { bookableWindows } from './slot-windows';

// Portal requests link to the organization's tenants (docs/tenant-linking.md) and follow their
// policy, on both booking paths: the one-statement fast path (no documents) and the full path
// (with a document).

// Frozen at Monday 2026-11-23 11:00 in Sydney (00:00 UTC). Bookings go to Tuesday 2026-11-24.
const NOW = '2026-11-23T00:00:00Z';
const DATE = '2026-11-24';

type Path = 'fast path' | 'full path';
const PATHS: Path[] = ['fast path', 'full path'];

describe.each(databaseKinds)('tenant linking on the portal on %s', (kind) => {
  let t: TestApp;
  let org: { id: string };
  let dockOne: { id: string; orgId: string };
  let dockTwo: { id: string; orgId: string };
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const request = (overrides: Record<string, unknown> = {}) => {
    seq += 1;
    return {
      orgId: org.id,
      tsrNumber: `TSR-LINK-${seq}`,
      tsrSystemType: 'servicenow',
      tenantName: 'Someone Else Pty Ltd',
      contactName: 'Jo Driver',
      tenantEmail: `jo${seq}@unlinked.example`,
      bookingType: 'delivery',
      date: DATE,
      slot: '09:00',
      expectedDurationMin: 60,
      vehicleType: 'rigid',
      vehicleRegistration: `LNK${seq}`,
      vehicleHeightM: 3.9,
      specialAccessNeeds: [],
      driverInductionCompleted: true,
      termsAccepted: true,
      ...overrides,
    };
  };

  /** The fast path takes a request without documents; a document sends it down the full path. */
  const submit = (via: Path, data: Record<string, unknown>) => {
    const form = new FormData();
    form.append('data', JSON.stringify(data));
    if (via === 'full path') form.append('documents', new Blob([new Uint8Array(PDF_BYTES)]), 'note.pdf');
    return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
  };

  const tenant = async (values: { name: string; domains?: string[]; emails?: string[]; status?: string; autoApprove?: boolean; sites?: string[] | null; max?: number | null }) => {
    const [row] = await query<{ id: string }>(
      `insert into tenants (org_id, name, email_domains, contact_emails, status, auto_approve, allowed_site_ids, max_bookings_per_day)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [org.id, values.name, values.domains ?? [], values.emails ?? [], values.status ?? 'active', values.autoApprove ?? false, values.sites ?? null, values.max ?? null],
    );
    return row!.id;
  };

  const stored = async (id: string) =>
    (await query<{ tenant_id: string | null; status: string; approved_at: Date | string | null; site_id: string }>(
      'select tenant_id, status, approved_at, site_id from bookings where id = $1',
      [id],
    ))[0]!;
  const bookingCount = async () => Number((await query<{ n: number }>('select count(*)::int as n from bookings'))[0]!.n);
  const storedFiles = () => {
    const root = path.join(t.dataDir, 'storage');
    return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((f) => String(f).includes('.')) : [];
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    org = await createOrg(db, { name: 'Linking Org' });
    dockOne = await createSite(db, org.id, { name: 'Dock One', timeZone: 'Australia/Sydney' });
    dockTwo = await createSite(db, org.id, { name: 'Dock Two', timeZone: 'Australia/Sydney' });
    await createBay(db, dockOne, { name: 'B-10', heightClearanceM: 5.5 });
    await createBay(db, dockOne, { name: 'B-2', heightClearanceM: 4.2 });
    await createBay(db, dockTwo, { name: 'C-1', heightClearanceM: 4.5 });
    const admin = await createUser(db, { email: 'admin@linking.example' });
    await addMember(db, org.id, admin.id, 'org_admin');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await query('delete from bookings');
    await query('delete from tenants');
    await query(`update organizations set settings = '{}'::jsonb where id = $1`, [org.id]);
  });

  describe.each(PATHS)('on the %s', (via) => {
    it("links by the e-mail's domain (case-blind), before contact e-mails and names", async () => {
      const byDomain = await tenant({ name: 'Domain Freight', domains: ['fastfreight.example'] });
      await tenant({ name: 'Fast Freight Pty Ltd' });
      await tenant({ name: 'Contact Co', emails: ['jo@fastfreight.example'] });
      const res = await submit(via, request({ tenantEmail: 'Jo@FastFreight.Example', tenantName: 'Fast Freight Pty Ltd' }));
      expect(res.statusCode).toBe(201);
      expect(res.json().status).toBe('pending');
      expect((await stored(res.json().id)).tenant_id).toBe(byDomain);
    });

    it('links by a contact e-mail, before the company name', async () => {
      const byEmail = await tenant({ name: 'Contact Co', emails: ['dispatch@gmail.com'] });
      await tenant({ name: 'Named Co' });
      const res = await submit(via, request({ tenantEmail: 'DISPATCH@gmail.com', tenantName: 'Named Co' }));
      expect(res.statusCode).toBe(201);
      expect((await stored(res.json().id)).tenant_id).toBe(byEmail);
    });

    it('links by the company name, trimmed and case-blind', async () => {
      const byName = await tenant({ name: 'Fast Freight Pty Ltd', domains: ['other.example'] });
      const res = await submit(via, request({ tenantName: '  fast FREIGHT pty ltd ' }));
      expect(res.statusCode).toBe(201);
      expect((await stored(res.json().id)).tenant_id).toBe(byName);
    });

    it('leaves a request that matches no tenant unlinked, under the organization defaults', async () => {
      await tenant({ name: 'Fast Freight Pty Ltd', domains: ['fastfreight.example'], emails: ['a@b.example'] });
      const res = await submit(via, request({ tenantName: 'Fast Freight', tenantEmail: 'jo@fastfreight.example.org' }));
      expect(res.statusCode).toBe(201);
      expect(await stored(res.json().id)).toMatchObject({ tenant_id: null, status: 'pending', approved_at: null });
    });

    it("refuses a blocked tenant's request with 403 and stores nothing", async () => {
      await tenant({ name: 'Rogue Haulage', domains: ['rogue.example'], status: 'blocked' });
      const filesBefore = storedFiles();
      const res = await submit(via, request({ tenantEmail: 'ops@rogue.example' }));
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({
        code: 'tenant_blocked',
        message: 'Bookings for Rogue Haulage are not accepted at this organization. Contact the site.',
      });
      expect(await bookingCount()).toBe(0);
      expect(storedFiles()).toEqual(filesBefore);
      const [audit] = await query<{ n: number }>(`select count(*)::int as n from audit_log where action = 'booking.created' and details->>'tsr_number' = $1`, [`TSR-LINK-${seq}`]);
      expect(audit!.n).toBe(0);
    });

    it("approves at once under the tenant's auto-approve, audited and confirmed to the haulier", async () => {
      const auto = await tenant({ name: 'Trusted Transport', domains: ['trusted.example'], autoApprove: true });
      const data = request({ tenantEmail: 'ops@trusted.example' });
      const res = await submit(via, data);
      expect(res.statusCode).toBe(201);
      expect(res.json().status).toBe('approved');
      const row = await stored(res.json().id);
      expect(row).toMatchObject({ tenant_id: auto, status: 'approved' });
      expect(new Date(row.approved_at!).toISOString()).toBe(new Date(NOW).toISOString());
      const [audit] = await query<{ details: Record<string, unknown> }>(`select details from audit_log where action = 'booking.created' and resource_id = $1`, [res.json().id]);
      expect(audit!.details).toMatchObject({ status: 'approved', tenant_id: auto, auto_approved: 'tenant', source: 'portal' });
      const kinds = await query<{ kind: string }>(`select kind from mail_outbox where payload->>'bookingId' = $1 order by kind`, [res.json().id]);
      expect(kinds.map((k) => k.kind)).toEqual(['booking.changed']);
      const mail = (await t.outbox()).find((m) => m.subject === `Booking approved – ${data.tsrNumber}`);
      expect(mail?.text).toContain('is approved');
      expect(mail?.text).toContain(res.json().manageUrl);
    });

    it("approves at once under the organization's default, linked or not", async () => {
      await query(`update organizations set settings = '{"booking":{"autoApprove":true}}'::jsonb where id = $1`, [org.id]);
      const linked = await tenant({ name: 'Plain Tenant', domains: ['plain.example'] });
      const unlinkedRes = await submit(via, request());
      expect(unlinkedRes.json().status).toBe('approved');
      expect(await stored(unlinkedRes.json().id)).toMatchObject({ tenant_id: null, status: 'approved' });
      const linkedRes = await submit(via, request({ tenantEmail: 'x@plain.example', slot: '10:00' }));
      expect(await stored(linkedRes.json().id)).toMatchObject({ tenant_id: linked, status: 'approved' });
      const [audit] = await query<{ details: Record<string, unknown> }>(`select details from audit_log where action = 'booking.created' and resource_id = $1`, [linkedRes.json().id]);
      expect(audit!.details.auto_approved).toBe('organization');
    });

    it("books only the tenant's allowed sites, and says so when none of them can take the request", async () => {
      const restricted = await tenant({ name: 'Yard Two Only', domains: ['two.example'], sites: [dockTwo.id] });
      // Unrestricted, the best fit is Dock One's B-2 (4.2 m); this tenant gets Dock Two's C-1.
      const first = await submit(via, request({ tenantEmail: 'a@two.example' }));
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ siteName: 'Dock Two', bayName: 'C-1' });
      expect((await stored(first.json().id)).tenant_id).toBe(restricted);
      // Dock Two is full at 09:00 while Dock One still has two free bays.
      const second = await submit(via, request({ tenantEmail: 'b@two.example' }));
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe('tenant_site_unavailable');
      expect(second.json().error.message).toContain('Yard Two Only may book only at Dock Two');
      expect(await bookingCount()).toBe(1);
      const other = await submit(via, request());
      expect(other.json()).toMatchObject({ siteName: 'Dock One', bayName: 'B-2' });
    });
  });

  describe('the one-statement path', () => {
    /** bookSlotFast itself: null means "the full path decides". */
    const bookFast = async (email: string, name = 'Statement Co') => {
      seq += 1;
      const rules = (await orgRules(t.ctx.database, org.id, true))!;
      const now = new Date(NOW);
      return bookSlotFast(t.ctx.database, {
        rules,
        windows: bookableWindows(rules.sites, DATE, '09:00', 60, now),
        vehicle: { heightM: 3.9, lengthM: null, needs: [] },
        record: {
          id: randomUUID(),
          org_id: org.id,
          tsr_number: `TSR-STMT-${seq}`,
          tenant_name: name,
          tenant_email: email,
          booking_type: 'delivery',
          vehicle_type: 'rigid',
          vehicle_registration: `STM${seq}`,
          vehicle_height_mm: 3900,
          vehicle_height_m: 3.9,
          expected_duration_min: 60,
          driver_induction_completed: true,
          status: 'pending',
          source: 'portal',
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        },
        audit: { details: { source: 'portal' }, ip: null, at: now },
        mail: [
          ['booking.received', [email], { onlyIf: 'pending' }],
          ['booking.changed', [email], { onlyIf: 'approved', payload: { change: 'approved' } }],
        ],
        mailPayload: { documents: 0 },
        link: linkKeysOf(email, name),
      });
    };

    it('links, restricts to allowed sites and auto-approves by itself', async () => {
      const id = await tenant({ name: 'Statement Co', domains: ['stmt.example'], autoApprove: true, sites: [dockTwo.id] });
      const booked = (await bookFast('ops@stmt.example')) as Exclude<Awaited<ReturnType<typeof bookFast>>, 'full'>;
      expect(booked).toMatchObject({ tenantId: id, status: 'approved', bayName: 'C-1', siteId: dockTwo.id });
      const kinds = await query<{ kind: string; payload: Record<string, unknown> }>(`select kind, payload from mail_outbox where payload->>'bookingId' = $1`, [booked!.id]);
      expect(kinds).toEqual([{ kind: 'booking.changed', payload: { documents: 0, change: 'approved', bookingId: booked!.id } }]);
      // Its only allowed site is full now: the statement books nothing elsewhere, and leaves the
      // answer to the full path (the restriction is the tenant's, not a full slot).
      expect(await bookFast('other@stmt.example')).toBeNull();
    });

    it('leaves blocked and daily-limited tenants to the full path', async () => {
      await tenant({ name: 'Blocked Co', domains: ['blocked.example'], status: 'blocked' });
      await tenant({ name: 'Limited Co', domains: ['limited.example'], max: 5 });
      expect(await bookFast('a@blocked.example')).toBeNull();
      expect(await bookFast('a@limited.example')).toBeNull();
      expect(await bookingCount()).toBe(0);
      expect(await bookFast('a@free.example', 'Nobody')).toMatchObject({ tenantId: null, status: 'pending', bayName: 'B-2' });
    });
  });

  describe('daily limit', () => {
    it("counts the tenant's live bookings on the site's local day and refuses the one over the limit", async () => {
      const limited = await tenant({ name: 'Capped Carriers', domains: ['capped.example'], max: 2 });
      // 06:00 on the 25th in Sydney is the 24th in UTC: it belongs to the 25th.
      const nextDay = await submit('fast path', request({ tenantEmail: 'a@capped.example', date: '2026-11-25', slot: '06:00' }));
      expect(nextDay.statusCode).toBe(201);
      for (const slot of ['09:00', '10:00']) {
        const res = await submit('fast path', request({ tenantEmail: 'a@capped.example', slot }));
        expect(res.statusCode).toBe(201);
        expect((await stored(res.json().id)).tenant_id).toBe(limited);
      }
      const over = await submit('full path', request({ tenantEmail: 'b@capped.example', slot: '11:00' }));
      expect(over.statusCode).toBe(409);
      expect(over.json().error.code).toBe('tenant_daily_limit');
      expect(over.json().error.message).toBe(
        'Capped Carriers already has 2 bookings on 2026-11-24, the most this organization accepts from them in a day. Choose another day or contact the site.',
      );
      expect(await bookingCount()).toBe(3);
      // A cancelled booking no longer counts.
      await query(`update bookings set status = 'cancelled' where tenant_id = $1 and start_time = '2026-11-23T22:00:00Z'`, [limited]);
      expect((await submit('fast path', request({ tenantEmail: 'b@capped.example', slot: '11:00' }))).statusCode).toBe(201);
    });

    it('holds under concurrent requests of the same tenant for the same day', async () => {
      await tenant({ name: 'Racing Freight', domains: ['racing.example'], max: 2 });
      const slots = ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00'];
      const answers = await Promise.all(slots.map((slot) => submit('fast path', request({ tenantEmail: 'x@racing.example', slot }))));
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toEqual([201, 201, 409, 409, 409, 409]);
      expect(await bookingCount()).toBe(2);
    });
  });
});
