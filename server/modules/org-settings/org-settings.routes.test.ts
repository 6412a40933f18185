import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../../domain/realtime';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { addMember, createOrg, createUser } from '../../test/fixtures';
import { PDF_BYTES, PNG_BYTES } from '../../test/files';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { hashToken, signAccessToken } from '../../auth/tokens';
import { findCameraToken, markCameraTokenUsed } from './camera-tokens';
import { LOGO_BUCKET } from '../../../domain/constants';

// The organization's own settings: profile, policy, notifications, number plates, logo and the
// cameras' webhook tokens — admins change them (audited, live), dockmasters read the plate
// settings, nobody outside the organization sees any of it.

const NOW = '2026-11-23T00:00:00Z';

/** A real, tiny WebP (lossless 1×1). */
const WEBP_BYTES = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

describe.each(databaseKinds)('organization settings API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourId: string;
  let northId: string;
  let harbourSiteId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let security: Record<string, string>;
  let harbourAdmin: Record<string, string>;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const signIn = async (email: string, expiresAt = NOW) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '1 day') returning id`,
      [user!.id, expiresAt],
    );
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };

  type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  const call = async (method: Method, url: string, headers: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body, raw: response.rawPayload, headers: response.headers };
  };
  const url = (p: string, orgId = acmeId) => `/api/orgs/${orgId}${p}`;

  const logoForm = (files: Array<[string, Buffer, string?]>) => {
    const form = new FormData();
    for (const [name, bytes, field] of files) form.append(field ?? 'logo', new Blob([new Uint8Array(bytes)]), name);
    return form;
  };
  const uploadLogo = (headers: Record<string, string>, files: Array<[string, Buffer, string?]>, orgId = acmeId) =>
    call('PUT', url('/settings/logo', orgId), headers, logoForm(files));

  const storedLogos = () => {
    const root = path.join(t.dataDir, 'storage', LOGO_BUCKET);
    return fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => String(f).includes('.')).map(String) : [];
  };
  const orgRow = async (orgId = acmeId) =>
    (await query<{ name: string; contact_email: string | null; settings: Record<string, unknown>; logo_key: string | null }>(
      `select name, contact_email, settings, logo_key from organizations where id = $1`,
      [orgId],
    ))[0]!;
  const auditRows = (action: string) =>
    query<{ action: string; details: { before: unknown; after: unknown }; actor_email: string; resource_id: string }>(
      `select action, details, actor_email, resource_id from audit_log where action = $1 order by created_at, id`,
      [action],
    );
  const auditCount = async () => Number((await query<{ n: number }>(`select count(*)::int as n from audit_log`))[0]!.n);

  /** Live events for Acme published while `fn` runs. */
  const eventsDuring = async (fn: () => Promise<unknown>) => {
    const events: RealtimeEvent[] = [];
    const stop = t.ctx.realtime!.subscribe!({ orgId: acmeId, siteId: null }, (e) => events.push(e));
    await fn();
    await new Promise((resolve) => setTimeout(resolve, kind === 'postgres' ? 300 : 20));
    stop();
    return events;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    harbourId = (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0]!.id;
    northId = (await query<{ id: string }>(`select id from sites where org_id = $1 and name = 'North Terminal'`, [acmeId]))[0]!.id;
    harbourSiteId = (await query<{ id: string }>(`select id from sites where org_id = $1 limit 1`, [harbourId]))[0]!.id;
    admin = await signIn('admin@acme.test');
    dock = await signIn('dock@acme.test');
    security = await signIn('security@acme.test');
    harbourAdmin = await signIn('admin@harbour.test');
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await query(`update organizations set settings = '{}'::jsonb where id = $1`, [acmeId]);
  });

  describe('profile and settings', () => {
    it('reads the profile and complete settings with their defaults', async () => {
      const res = await call('GET', url('/settings'), admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        profile: expect.objectContaining({ name: 'Acme Logistics', hasLogo: false, logoVersion: null }),
        settings: {
          booking: { autoApprove: false, cancellationCutoffHours: 2, hauliersChooseSite: false },
          notifications: { newRequestRecipients: 'org_admins', newRequestEmails: [] },
          numberPlates: { matchThreshold: 0.8, autoCheckIn: false },
          reminders: { hoursBefore: [24, 2] },
          portal: { defaultLanguage: 'en' },
        },
      });
    });

    it('changes the profile: audited with before and after, pushed live', async () => {
      const before = await orgRow();
      const events = await eventsDuring(async () => {
        const res = await call('PATCH', url('/settings/profile'), admin, { name: '  Acme Logistics Group ', contactEmail: 'ops@acme.test', address: '1 Dock Road' });
        expect(res.status).toBe(200);
        expect(res.body.profile).toMatchObject({ name: 'Acme Logistics Group', contactEmail: 'ops@acme.test', address: '1 Dock Road' });
      });
      expect(events).toContainEqual(expect.objectContaining({ entity: 'organization', action: 'updated', id: acmeId, siteId: null }));
      const [entry] = (await auditRows('organization.profile_updated')).slice(-1);
      expect(entry).toMatchObject({
        actor_email: 'admin@acme.test',
        resource_id: acmeId,
        details: { before: { name: before.name, contactEmail: before.contact_email, address: null }, after: { name: 'Acme Logistics Group', contactEmail: 'ops@acme.test', address: '1 Dock Road' } },
      });
      // An empty field clears it; the same values again change (and audit) nothing.
      expect((await call('PATCH', url('/settings/profile'), admin, { contactEmail: '' })).body.profile.contactEmail).toBeNull();
      const count = await auditCount();
      expect((await call('PATCH', url('/settings/profile'), admin, { name: 'Acme Logistics Group' })).status).toBe(200);
      expect(await auditCount()).toBe(count);
      await call('PATCH', url('/settings/profile'), admin, { name: before.name, contactEmail: before.contact_email });
    });

    it('changes only the fields sent, audited per section with before and after', async () => {
      const res = await call('PATCH', url('/settings'), admin, { booking: { autoApprove: true }, numberPlates: { matchThreshold: 0.9 } });
      expect(res.status).toBe(200);
      expect(res.body.settings).toEqual({
        booking: { autoApprove: true, cancellationCutoffHours: 2, hauliersChooseSite: false },
        notifications: { newRequestRecipients: 'org_admins', newRequestEmails: [] },
        numberPlates: { matchThreshold: 0.9, autoCheckIn: false },
        reminders: { hoursBefore: [24, 2] },
        portal: { defaultLanguage: 'en' },
      });
      const [entry] = (await auditRows('organization.settings_updated')).slice(-1);
      expect(entry!.details).toEqual({
        before: { booking: { autoApprove: false }, numberPlates: { matchThreshold: 0.8 } },
        after: { booking: { autoApprove: true }, numberPlates: { matchThreshold: 0.9 } },
      });

      const custom = await call('PATCH', url('/settings'), admin, {
        notifications: { newRequestRecipients: 'custom', newRequestEmails: [' bookings@acme.test ', 'BOOKINGS@acme.test', 'gate@acme.test'] },
      });
      expect(custom.status).toBe(200);
      expect(custom.body.settings.notifications).toEqual({ newRequestRecipients: 'custom', newRequestEmails: ['bookings@acme.test', 'gate@acme.test'] });
      expect((await orgRow()).settings).toMatchObject({ booking: { autoApprove: true }, notifications: { newRequestRecipients: 'custom' } });

      // Reminders (decision 042): stored earliest first.
      const reminders = await call('PATCH', url('/settings'), admin, { reminders: { hoursBefore: [2, 48] } });
      expect(reminders.status).toBe(200);
      expect(reminders.body.settings.reminders).toEqual({ hoursBefore: [48, 2] });
      const [reminderEntry] = (await auditRows('organization.settings_updated')).slice(-1);
      expect(reminderEntry!.details).toEqual({ before: { reminders: { hoursBefore: [24, 2] } }, after: { reminders: { hoursBefore: [48, 2] } } });
      await call('PATCH', url('/settings'), admin, { reminders: { hoursBefore: [24, 2] } });
    });

    it('refuses bad input with field messages and changes nothing', async () => {
      await call('PATCH', url('/settings'), admin, { booking: { cancellationCutoffHours: 6 } });
      const before = await orgRow();
      const audits = await auditCount();
      const cases: Array<{ body: unknown; path: string; message: string }> = [
        { body: { numberPlates: { matchThreshold: 1.5 } }, path: 'numberPlates.matchThreshold', message: 'At most 1' },
        { body: { numberPlates: { matchThreshold: 0.2 } }, path: 'numberPlates.matchThreshold', message: 'At least 0.5' },
        { body: { booking: { cancellationCutoffHours: -1 } }, path: 'booking.cancellationCutoffHours', message: 'Cannot be negative' },
        { body: { booking: { cancellationCutoffHours: 2.5 } }, path: 'booking.cancellationCutoffHours', message: 'Enter whole hours' },
        { body: { notifications: { newRequestRecipients: 'custom', newRequestEmails: ['not-an-email'] } }, path: 'notifications.newRequestEmails.0', message: 'Enter a valid e-mail address (not-an-email)' },
        { body: { notifications: { newRequestRecipients: 'custom', newRequestEmails: [] } }, path: 'notifications.newRequestEmails', message: 'Add at least one e-mail address, or send to all organization admins' },
        { body: { notifications: { newRequestRecipients: 'custom' } }, path: 'notifications.newRequestEmails', message: 'Add at least one e-mail address, or send to all organization admins' },
        { body: { booking: { autoApprove: 'yes' } }, path: 'booking.autoApprove', message: 'Choose on or off' },
        { body: { booking: { surprise: 1 } }, path: 'booking', message: 'Unrecognized key: "surprise"' },
        { body: { reminders: { hoursBefore: [24, 24] } }, path: 'reminders.hoursBefore', message: 'Each reminder needs a different number of hours' },
        { body: { reminders: { hoursBefore: [48, 24, 2, 1] } }, path: 'reminders.hoursBefore', message: 'At most 3 reminders' },
        { body: { reminders: { hoursBefore: [0] } }, path: 'reminders.hoursBefore.0', message: 'At least 1 hour' },
        { body: { reminders: { hoursBefore: [169] } }, path: 'reminders.hoursBefore.0', message: 'At most 168 hours (a week)' },
        { body: { reminders: { hoursBefore: [1.5] } }, path: 'reminders.hoursBefore.0', message: 'Enter whole hours' },
      ];
      for (const c of cases) {
        const res = await call('PATCH', url('/settings'), admin, c.body);
        expect({ body: c.body, status: res.status }).toEqual({ body: c.body, status: 400 });
        expect(res.body.error.details).toContainEqual({ path: c.path, message: c.message });
      }
      const profile = await call('PATCH', url('/settings/profile'), admin, { name: ' ', contactEmail: 'acme.test', contactPhone: 'call me' });
      expect(profile.status).toBe(400);
      expect(profile.body.error.details).toEqual(
        expect.arrayContaining([
          { path: 'name', message: 'Organization name is required' },
          { path: 'contactEmail', message: 'Enter a valid e-mail address' },
          { path: 'contactPhone', message: 'Enter a phone number (digits, spaces, + ( ) - .)' },
        ]),
      );
      expect((await call('PATCH', url('/settings/profile'), admin, { name: 'Two\nlines' })).status).toBe(400);
      expect((await call('PATCH', url('/settings'), admin, {})).status).toBe(400);
      expect(await orgRow()).toEqual(before);
      expect(await auditCount()).toBe(audits);
    });

    it('lets a dockmaster read the number-plate settings and nothing else', async () => {
      await call('PATCH', url('/settings'), admin, { numberPlates: { matchThreshold: 0.75, autoCheckIn: true } });
      const plates = await call('GET', url('/settings/number-plates'), dock);
      expect(plates).toMatchObject({ status: 200, body: { matchThreshold: 0.75, autoCheckIn: true } });
      expect((await call('GET', url('/settings'), dock)).status).toBe(403);
      expect((await call('GET', url('/settings/camera-tokens'), dock)).status).toBe(403);
    });
  });

  describe('logo', () => {
    afterAll(async () => {
      await call('DELETE', url('/settings/logo'), admin);
    });

    it('takes a real PNG and serves it back as an image, private and not sniffed', async () => {
      const events = await eventsDuring(async () => {
        const res = await uploadLogo(admin, [['logo.png', PNG_BYTES]]);
        expect(res.status).toBe(200);
        expect(res.body.profile).toMatchObject({ hasLogo: true, logoVersion: expect.any(String) });
      });
      expect(events.map((e) => e.entity)).toContain('organization');
      const served = await call('GET', url('/settings/logo'), admin);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(String(served.headers['cache-control'])).toContain('private');
      expect(Buffer.compare(served.raw, PNG_BYTES)).toBe(0);
      // The same image again: 304 by its ETag. Dockmasters may see it too.
      const again = await call('GET', url('/settings/logo'), { ...admin, 'if-none-match': String(served.headers.etag) });
      expect(again.status).toBe(304);
      expect((await call('GET', url('/settings/logo'), dock)).status).toBe(200);
      expect(storedLogos()).toHaveLength(1);
      const [entry] = (await auditRows('organization.logo_updated')).slice(-1);
      expect(entry!.details).toEqual({ before: null, after: { contentType: 'image/png', sizeBytes: PNG_BYTES.length } });
    });

    it('replaces the logo and deletes the old image: no orphan in the store', async () => {
      await uploadLogo(admin, [['first.png', PNG_BYTES]]);
      const first = (await orgRow()).logo_key!;
      const res = await uploadLogo(admin, [['second.webp', WEBP_BYTES]]);
      expect(res.status).toBe(200);
      const second = (await orgRow()).logo_key!;
      expect(second).not.toBe(first);
      expect(second.endsWith('.webp')).toBe(true);
      expect(storedLogos()).toEqual([second.replace(/\//g, path.sep)]);
      const served = await call('GET', url('/settings/logo'), admin);
      expect(served.headers['content-type']).toBe('image/webp');
      const [entry] = (await auditRows('organization.logo_updated')).slice(-1);
      expect(entry!.details).toEqual({ before: { contentType: 'image/png' }, after: { contentType: 'image/webp', sizeBytes: WEBP_BYTES.length } });
    });

    it('refuses a disguised file, an oversized image and a second file with a field message, storing nothing', async () => {
      await uploadLogo(admin, [['current.png', PNG_BYTES]]);
      const before = await orgRow();
      const files = storedLogos();
      const audits = await auditCount();
      const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
      const oversized = Buffer.concat([PNG_BYTES, Buffer.alloc(1024 * 1024)]);
      const attempts: Array<{ files: Array<[string, Buffer, string?]>; message: string }> = [
        { files: [['logo.png', PDF_BYTES]], message: 'The logo must be a PNG, JPEG or WebP image' },
        { files: [['logo.png', html]], message: 'The logo must be a PNG, JPEG or WebP image' },
        { files: [['logo.png', oversized]], message: 'The logo must be 1 MB or smaller' },
        // Issue 21 item 6: an image followed by a page, in UTF-16 or not.
        { files: [['logo.png', Buffer.concat([PNG_BYTES, Buffer.from('<script>alert(1)</script>', 'utf16le')])]], message: 'The logo holds something besides the image (scripts or HTML) and was refused' },
        { files: [['logo.png', Buffer.concat([PNG_BYTES, Buffer.from('<p onclick=alert(1)>hi')])]], message: 'The logo holds something besides the image (scripts or HTML) and was refused' },
        { files: [['a.png', PNG_BYTES], ['b.png', PNG_BYTES]], message: 'Upload one image at a time' },
        { files: [['logo.png', Buffer.alloc(0)]], message: 'The logo file is empty' },
        { files: [['logo.png', PNG_BYTES, 'image']], message: 'Send the image in the field "logo"' },
        { files: [], message: 'Choose an image to upload' },
      ];
      for (const attempt of attempts) {
        const res = await uploadLogo(admin, attempt.files);
        expect({ files: attempt.files.map((f) => f[0]), status: res.status }).toEqual({ files: attempt.files.map((f) => f[0]), status: 400 });
        expect(res.body.error.details).toEqual([{ path: 'logo', message: attempt.message }]);
      }
      const notMultipart = await call('PUT', url('/settings/logo'), admin, { logo: 'x' });
      expect(notMultipart.status).toBe(400);
      expect(await orgRow()).toEqual(before);
      expect(storedLogos()).toEqual(files);
      expect(await auditCount()).toBe(audits);
    });

    it('deletes the new image when the change cannot be saved', async () => {
      const org = await createOrg(t.ctx.database, { name: 'Vanishing Freight' });
      const user = await createUser(t.ctx.database, { email: 'admin@vanishing.test' });
      await addMember(t.ctx.database, org.id, user.id, 'org_admin');
      const headers = await signIn('admin@vanishing.test');
      const storage = t.ctx.storage;
      const put = storage.put;
      // The organization is deleted between storing the image and saving the change.
      storage.put = async (...args) => {
        await put(...args);
        await query(`delete from organizations where id = $1`, [org.id]);
      };
      try {
        const before = storedLogos();
        const res = await uploadLogo(headers, [['logo.png', PNG_BYTES]], org.id);
        expect(res.status).toBe(404);
        expect(storedLogos()).toEqual(before);
      } finally {
        storage.put = put;
      }
    });

    it('removes the logo (audited) and then has none to serve', async () => {
      await uploadLogo(admin, [['logo.png', PNG_BYTES]]);
      const res = await call('DELETE', url('/settings/logo'), admin);
      expect(res.status).toBe(200);
      expect(res.body.profile).toMatchObject({ hasLogo: false, logoVersion: null });
      expect(storedLogos()).toEqual([]);
      expect((await call('GET', url('/settings/logo'), admin)).status).toBe(404);
      expect((await call('DELETE', url('/settings/logo'), admin)).status).toBe(404);
      const [entry] = (await auditRows('organization.logo_removed')).slice(-1);
      expect(entry!.details).toEqual({ before: { contentType: 'image/png' }, after: null });
    });
  });

  describe('camera tokens', () => {
    it('shows the secret once, stores only its hash, finds it for the webhook and revokes it at once', async () => {
      const created = await call('POST', url('/settings/camera-tokens'), admin, { siteId: northId, name: 'Gate 1 ANPR' });
      expect(created.status).toBe(201);
      expect(created.headers['cache-control']).toBe('no-store');
      const { secret, id } = created.body as { secret: string; id: string };
      expect(secret).toMatch(/^bwcam_[A-Za-z0-9_-]{43}$/);
      expect(created.body).toMatchObject({ name: 'Gate 1 ANPR', siteId: northId, siteName: 'North Terminal', hint: secret.slice(-4), createdByEmail: 'admin@acme.test', lastUsedAt: null, revokedAt: null });

      // Only the hash is kept; the secret is nowhere in the database, nor in any later answer.
      const [row] = await query<{ token_hash: string; token_hint: string }>(`select token_hash, token_hint from site_camera_tokens where id = $1`, [id]);
      expect(row).toEqual({ token_hash: hashToken(secret), token_hint: secret.slice(-4) });
      const [{ found }] = await query<{ found: number }>(
        `select (select count(*) from site_camera_tokens where token_hash = $1 or name = $1)::int
              + (select count(*) from audit_log where details::text like '%' || $1 || '%')::int as found`,
        [secret],
      );
      expect(found).toBe(0);
      const list = await call('GET', url('/settings/camera-tokens'), admin);
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).not.toContain(secret);
      expect(list.body).toContainEqual(expect.objectContaining({ id, name: 'Gate 1 ANPR', siteName: 'North Terminal', hint: secret.slice(-4), revokedAt: null }));
      const [audit] = (await auditRows('camera_token.created')).slice(-1);
      expect(audit!.details).toEqual({ before: null, after: { name: 'Gate 1 ANPR', site: 'North Terminal', hint: secret.slice(-4) } });

      // The webhook's helper: this site and this secret only.
      const match = await findCameraToken(t.ctx.database.db, northId, secret);
      expect(match).toEqual({ id, orgId: acmeId, siteId: northId, name: 'Gate 1 ANPR' });
      expect(await findCameraToken(t.ctx.database.db, harbourSiteId, secret)).toBeNull();
      expect(await findCameraToken(t.ctx.database.db, northId, `${secret.slice(0, -1)}x`)).toBeNull();
      expect(await findCameraToken(t.ctx.database.db, 'not-a-uuid', secret)).toBeNull();
      await markCameraTokenUsed(t.ctx.database.db, { orgId: acmeId, id }, new Date('2026-11-23T00:05:00Z'));
      // The write names the organization: the token's id with another one changes nothing.
      await markCameraTokenUsed(t.ctx.database.db, { orgId: harbourId, id }, new Date('2026-11-23T00:09:00Z'));
      expect((await call('GET', url('/settings/camera-tokens'), admin)).body.find((x: { id: string }) => x.id === id).lastUsedAt).toBe('2026-11-23T00:05:00.000Z');

      const revoked = await call('DELETE', url(`/settings/camera-tokens/${id}`), admin);
      expect(revoked.status).toBe(204);
      expect(await findCameraToken(t.ctx.database.db, northId, secret)).toBeNull();
      expect((await call('GET', url('/settings/camera-tokens'), admin)).body.find((x: { id: string }) => x.id === id).revokedAt).toBe(new Date(NOW).toISOString());
      const [revokeAudit] = (await auditRows('camera_token.revoked')).slice(-1);
      expect(revokeAudit!.details).toMatchObject({ before: { revokedAt: null }, after: { revokedAt: new Date(NOW).toISOString() } });
      // Again: nothing more to do, nothing more audited.
      expect((await call('DELETE', url(`/settings/camera-tokens/${id}`), admin)).status).toBe(204);
      expect(await auditRows('camera_token.revoked')).toHaveLength(1);
      expect((await call('DELETE', url('/settings/camera-tokens/00000000-0000-4000-8000-000000000000'), admin)).status).toBe(404);
      expect((await call('DELETE', url('/settings/camera-tokens/nope'), admin)).status).toBe(404);
    });

    it("refuses another organization's site, a blank name, and tokens of another organization", async () => {
      const before = Number((await query<{ n: number }>(`select count(*)::int as n from site_camera_tokens`))[0]!.n);
      const foreign = await call('POST', url('/settings/camera-tokens'), admin, { siteId: harbourSiteId, name: 'Sneaky' });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.details).toEqual([{ path: 'siteId', message: 'Choose one of this organization’s sites' }]);
      expect((await call('POST', url('/settings/camera-tokens'), admin, { siteId: 'x', name: 'Sneaky' })).status).toBe(400);
      const blank = await call('POST', url('/settings/camera-tokens'), admin, { siteId: northId, name: '  ' });
      expect(blank.body.error.details).toEqual([{ path: 'name', message: 'Name is required' }]);
      expect(Number((await query<{ n: number }>(`select count(*)::int as n from site_camera_tokens`))[0]!.n)).toBe(before);

      const harbourToken = await call('POST', url('/settings/camera-tokens', harbourId), harbourAdmin, { siteId: harbourSiteId, name: 'Harbour gate' });
      expect(harbourToken.status).toBe(201);
      expect((await call('DELETE', url(`/settings/camera-tokens/${harbourToken.body.id}`), admin)).status).toBe(404);
      expect(JSON.stringify((await call('GET', url('/settings/camera-tokens'), admin)).body)).not.toContain('Harbour gate');
      expect(await findCameraToken(t.ctx.database.db, harbourSiteId, harbourToken.body.secret)).toMatchObject({ orgId: harbourId });
    });
  });

  describe('outsiders', () => {
    it('answers another organization 404, a dockmaster’s write 403, anonymous 401 — and changes nothing', async () => {
      const expired = await signIn('admin@acme.test', '2026-11-20T00:00:00Z');
      const token = await call('POST', url('/settings/camera-tokens'), admin, { siteId: northId, name: 'Walk token' });
      const before = await orgRow();
      const routes: Array<{ method: Method; path: string; body?: () => unknown; isWrite: boolean }> = [
        { method: 'GET', path: '/settings', isWrite: false },
        { method: 'GET', path: '/settings/number-plates', isWrite: false },
        { method: 'PATCH', path: '/settings/profile', body: () => ({ name: 'Hijacked' }), isWrite: true },
        { method: 'PATCH', path: '/settings', body: () => ({ booking: { autoApprove: true } }), isWrite: true },
        { method: 'PUT', path: '/settings/logo', body: () => logoForm([['logo.png', PNG_BYTES]]), isWrite: true },
        { method: 'GET', path: '/settings/logo', isWrite: false },
        { method: 'DELETE', path: '/settings/logo', isWrite: true },
        { method: 'GET', path: '/settings/camera-tokens', isWrite: false },
        { method: 'POST', path: '/settings/camera-tokens', body: () => ({ siteId: northId, name: 'Hijack' }), isWrite: true },
        { method: 'DELETE', path: `/settings/camera-tokens/${token.body.id}`, isWrite: true },
      ];
      const callers: Array<{ who: string; headers: () => Record<string, string>; status: number }> = [
        { who: "another organization's admin", headers: () => harbourAdmin, status: 404 },
        { who: 'security staff of the organization', headers: () => security, status: 404 },
        { who: 'anonymous', headers: () => ({}), status: 401 },
        { who: 'an expired session', headers: () => expired, status: 401 },
      ];
      for (const route of routes) {
        for (const caller of callers) {
          const res = await call(route.method, url(route.path), caller.headers(), route.body?.());
          expect({ route: `${route.method} ${route.path}`, who: caller.who, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, who: caller.who, status: caller.status });
          expect(JSON.stringify(res.body)).not.toContain('Walk token');
        }
        if (route.isWrite) {
          const res = await call(route.method, url(route.path), dock, route.body?.());
          expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, status: 403 });
        }
      }
      expect(await orgRow()).toEqual(before);
      expect(storedLogos()).toEqual([]);
      expect((await query(`select revoked_at from site_camera_tokens where id = $1`, [token.body.id]))[0]).toEqual({ revoked_at: null });
      expect(await query(`select id from site_camera_tokens where name = 'Hijack'`)).toEqual([]);
    });
  });
});
