import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import type { Storage } from './storage';

// Its own module so the AWS SDK is loaded only when S3 is configured (it costs start-up time).

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
          Body: Buffer.isBuffer(body) ? body : createReadStream(body.path),
          ...(Buffer.isBuffer(body) ? {} : { ContentLength: body.size }),
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
