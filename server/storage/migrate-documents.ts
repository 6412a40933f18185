import fs from 'node:fs';
import { isNotNull } from 'drizzle-orm';
import { LOGO_BUCKET } from '../../domain/constants';
import type { Database } from '../db/client';
import { bookingDocuments, organizations } from '../db/schema';
import type { Storage } from './storage';

// Moving stored files from one store to another (local folder, PostgreSQL, S3) when a deployment
// switches: every file a row refers to is copied if the target lacks it. Idempotent, so it can run
// at every start and be interrupted; the source is left as it was (remove it once satisfied).


export type MigrationReport = { copied: number; present: number; missing: Array<{ bucket: string; key: string }> };

/** Every stored file a row refers to: booking documents and organization logos. */
export async function referencedObjects(database: Database): Promise<Array<{ bucket: string; key: string; contentType: string | null }>> {
  const documents = await database.db
    .select({ bucket: bookingDocuments.bucket, key: bookingDocuments.storageKey, contentType: bookingDocuments.contentType })
    .from(bookingDocuments);
  const logos = await database.db.select({ key: organizations.logoKey }).from(organizations).where(isNotNull(organizations.logoKey));
  return [...documents, ...logos.map((logo) => ({ bucket: LOGO_BUCKET, key: logo.key!, contentType: null }))];
}

export async function migrateDocuments(database: Database, from: Storage, to: Storage): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, present: 0, missing: [] };
  for (const object of await referencedObjects(database)) {
    if ((await to.get(object.bucket, object.key)) !== null) {
      report.present += 1;
      continue;
    }
    const body = await from.get(object.bucket, object.key);
    if (body === null) {
      report.missing.push({ bucket: object.bucket, key: object.key });
      continue;
    }
    await to.put(object.bucket, object.key, body, object.contentType ?? contentTypeOf(object.key));
    report.copied += 1;
  }
  return report;
}

/** Logos keep their type in the key's extension. */
function contentTypeOf(key: string): string {
  if (key.endsWith('.png')) return 'image/png';
  if (key.endsWith('.jpg') || key.endsWith('.jpeg')) return 'image/jpeg';
  if (key.endsWith('.svg')) return 'image/svg+xml';
  if (key.endsWith('.webp')) return 'image/webp';
  return 'application/octet-stream';
}

/** Whether a local store folder holds anything (a node switched from local storage). */
export function hasLocalFiles(root: string): boolean {
  try {
    return fs.readdirSync(root).some((bucket) => fs.statSync(`${root}/${bucket}`).isDirectory() && fs.readdirSync(`${root}/${bucket}`).length > 0);
  } catch {
    return false;
  }
}
