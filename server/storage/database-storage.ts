import fs from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { storedObjects } from '../db/schema';
import type { Storage } from './storage';

/**
 * Files kept in PostgreSQL itself (`stored_objects`): the default on a PostgreSQL server without an
 * S3 store, so every node of a cluster serves what any node stored — no extra service. Booking
 * documents are at most a few MB each (domain/constants.ts); S3 stays the choice for large volumes.
 */
export function createDatabaseStorage(database: Database): Storage {
  const { db } = database;
  return {
    kind: 'database',
    put: async (bucket, key, body, contentType) => {
      const content = Buffer.isBuffer(body) ? body : await fs.readFile(body.path);
      // Never overwrite, like the other stores: a repeated key is a bug, not a replacement.
      const inserted = await db
        .insert(storedObjects)
        .values({ bucket, key, contentType, sizeBytes: content.length, content })
        .onConflictDoNothing()
        .returning({ key: storedObjects.key });
      if (inserted.length === 0) throw new Error(`Stored object exists already: ${bucket}/${key}`);
    },
    get: async (bucket, key) => {
      const [row] = await db
        .select({ content: storedObjects.content })
        .from(storedObjects)
        .where(and(eq(storedObjects.bucket, bucket), eq(storedObjects.key, key)));
      return row?.content ?? null;
    },
    remove: async (bucket, key) => {
      await db.delete(storedObjects).where(and(eq(storedObjects.bucket, bucket), eq(storedObjects.key, key)));
    },
  };
}
