import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** A file on local disk to store (streamed, never read whole into memory). */
export type LocalFile = { path: string; size: number };

/** An object store of buckets and keys: a local folder by default, any S3-compatible store when configured. */
export type Storage = {
  kind: 'local' | 's3' | 'database';
  put: (bucket: string, key: string, body: Buffer | LocalFile, contentType: string) => Promise<void>;
  get: (bucket: string, key: string) => Promise<Buffer | null>;
  remove: (bucket: string, key: string) => Promise<void>;
};

function safeJoin(root: string, bucket: string, key: string): string {
  const full = path.resolve(root, bucket, key);
  if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`Invalid storage key: ${key}`);
  return full;
}

export function createLocalStorage(root: string): Storage {
  return {
    kind: 'local',
    put: async (bucket, key, body) => {
      const file = safeJoin(root, bucket, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Never overwrite (upsert false, as the spec's storage does).
      if (Buffer.isBuffer(body)) await fs.writeFile(file, body, { flag: 'wx' });
      else await fs.copyFile(body.path, file, fsConstants.COPYFILE_EXCL);
    },
    get: async (bucket, key) => {
      try {
        return await fs.readFile(safeJoin(root, bucket, key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    remove: async (bucket, key) => {
      await fs.rm(safeJoin(root, bucket, key), { force: true });
    },
  };
}
