import fs from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** An object store of buckets and keys: a local folder by default, any S3-compatible store when configured. */
export type Storage = {
  kind: 'local' | 's3';
  put: (bucket: string, key: string, body: Buffer, contentType: string) => Promise<void>;
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
      // 'wx': never overwrite (upsert false, as the spec's storage does).
      await fs.writeFile(file, body, { flag: 'wx' });
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

/**
 * S3-compatible store: every logical bucket is a key prefix inside the one configured S3 bucket,
 * so a deployment needs a single bucket and credential.
 */
export function createS3Storage(options: {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}): Storage {
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
  });
  const objectKey = (bucket: string, key: string) => `${bucket}/${key}`;
  return {
    kind: 's3',
    put: async (bucket, key, body, contentType) => {
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: objectKey(bucket, key),
          Body: body,
          ContentType: contentType,
          CacheControl: 'max-age=3600',
          IfNoneMatch: '*',
        }),
      );
    },
    get: async (bucket, key) => {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(bucket, key) }));
        return Buffer.from(await out.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    remove: async (bucket, key) => {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: objectKey(bucket, key) }));
    },
  };
}
