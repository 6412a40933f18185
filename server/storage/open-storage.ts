import path from 'node:path';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { createDatabaseStorage } from './database-storage';
import { createLocalStorage, type Storage } from './storage';

export type StoreKind = Config['documentStore'];

/** The store of one kind; the AWS SDK loads only when S3 is used (start-up time). */
export async function openStorage(kind: StoreKind, config: Config, database: Database): Promise<Storage> {
  if (kind === 's3') {
    if (!config.s3) throw new Error('The S3 store is not configured (S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)');
    return (await import('./s3-storage')).createS3Storage(config.s3);
  }
  if (kind === 'database') {
    if (database.kind !== 'postgres') throw new Error('The database store needs a PostgreSQL server (DATABASE_URL)');
    return createDatabaseStorage(database);
  }
  return createLocalStorage(localStorageRoot(config));
}

export const localStorageRoot = (config: Config) => path.join(config.dataDir, 'storage');
