import { eq } from 'drizzle-orm';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS_BUCKET, LOGO_BUCKET } from '../../domain/constants';
import { bookingDocuments, organizations } from '../db/schema';
import { createBay, createOrg, createSite } from '../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { createDatabaseStorage } from './database-storage';
import { migrateDocuments } from './migrate-documents';
import { createLocalStorage } from './storage';

// Documents shared by every node (issue 23): kept in PostgreSQL when no S3 store is configured,
// and copied over from a node's own disk when a deployment switches stores.

describe.each(databaseKinds)('database storage on %s', (kind) => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-dbstore-'));
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('stores, reads back and removes a file (from memory or from a temporary file), and never overwrites one', async () => {
    const storage = createDatabaseStorage(t.ctx.database);
    const body = Buffer.from('%PDF-1.4 shared');
    await storage.put(DOCUMENTS_BUCKET, 'org/one.pdf', body, 'application/pdf');
    expect(await storage.get(DOCUMENTS_BUCKET, 'org/one.pdf')).toEqual(body);
    const file = path.join(root, 'upload.tmp');
    fs.writeFileSync(file, Buffer.from([0, 1, 2, 255]));
    await storage.put(DOCUMENTS_BUCKET, 'org/two.bin', { path: file, size: 4 }, 'application/octet-stream');
    expect(await storage.get(DOCUMENTS_BUCKET, 'org/two.bin')).toEqual(Buffer.from([0, 1, 2, 255]));
    await expect(storage.put(DOCUMENTS_BUCKET, 'org/one.pdf', Buffer.from('other'), 'application/pdf')).rejects.toThrow(/exists already/);
    expect(await storage.get(DOCUMENTS_BUCKET, 'org/one.pdf')).toEqual(body);
    await storage.remove(DOCUMENTS_BUCKET, 'org/one.pdf');
    expect(await storage.get(DOCUMENTS_BUCKET, 'org/one.pdf')).toBeNull();
    expect(await storage.get('other-bucket', 'org/two.bin')).toBeNull();
  });

  it('copies every file a row refers to from a local folder, once, and names what the source lacks', async () => {
    const org = await createOrg(t.ctx.database);
    const site = await createSite(t.ctx.database, org.id);
    await createBay(t.ctx.database, site);
    const local = createLocalStorage(path.join(root, 'local'));
    await local.put(LOGO_BUCKET, `${org.id}/logo-1.png`, Buffer.from('png'), 'image/png');
    await local.put(DOCUMENTS_BUCKET, `${org.id}/b/note.pdf`, Buffer.from('pdf'), 'application/pdf');
    await t.ctx.database.db.update(organizations).set({ logoKey: `${org.id}/logo-1.png` }).where(eqId(org.id));
    const bookingId = await anyBooking(t, org.id, site.id);
    await t.ctx.database.db.insert(bookingDocuments).values([
      { orgId: org.id, bookingId, fileName: 'note.pdf', contentType: 'application/pdf', sizeBytes: 3, storageKey: `${org.id}/b/note.pdf` },
      { orgId: org.id, bookingId, fileName: 'lost.pdf', contentType: 'application/pdf', sizeBytes: 3, storageKey: `${org.id}/b/lost.pdf` },
    ]);
    const shared = createDatabaseStorage(t.ctx.database);
    const first = await migrateDocuments(t.ctx.database, local, shared);
    expect(first).toEqual({ copied: 2, present: 0, missing: [{ bucket: DOCUMENTS_BUCKET, key: `${org.id}/b/lost.pdf` }] });
    expect(String(await shared.get(LOGO_BUCKET, `${org.id}/logo-1.png`))).toBe('png');
    expect(String(await shared.get(DOCUMENTS_BUCKET, `${org.id}/b/note.pdf`))).toBe('pdf');
    // Again: nothing copied twice.
    expect(await migrateDocuments(t.ctx.database, local, shared)).toMatchObject({ copied: 0, present: 2 });
  });
});

const eqId = (id: string) => eq(organizations.id, id);

/** A booking row to hang documents on (the smallest the schema allows). */
async function anyBooking(t: TestApp, orgId: string, siteId: string): Promise<string> {
  const [bay] = await t.ctx.database.query<{ id: string }>('select id from bays where site_id = $1 limit 1', [siteId]);
  const [row] = await t.ctx.database.query<{ id: string }>(
    `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, vehicle_type, vehicle_registration,
        vehicle_height_mm, vehicle_height_m, start_time, end_time, window_start, window_end)
     values ($1, $2, $3, 'TSR-DOC', 'Doc Co', 'd@doc.example', 'rigid', 'DOC1', 3000, 3,
        '2026-12-01T10:00:00Z', '2026-12-01T10:30:00Z', '2026-12-01T10:00:00Z', '2026-12-01T10:30:00Z') returning id`,
    [orgId, siteId, bay!.id],
  );
  return row!.id;
}
