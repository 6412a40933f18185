import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from './s3-storage';
import { createLocalStorage, type Storage } from './storage';

// The same contract on the local folder and on an S3-compatible server (s3rver, in-process).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-storage-'));
let s3server: S3rver;
const stores: Record<string, () => Storage> = {};

beforeAll(async () => {
  s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(root, 's3'), configureBuckets: [{ name: 'baywise', configs: [] }] });
  const address = (await s3server.run()) as AddressInfo;
  stores.local = () => createLocalStorage(path.join(root, 'local'));
  stores.s3 = () =>
    createS3Storage({
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      bucket: 'baywise',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
});
afterAll(async () => {
  await s3server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe.each(['local', 's3'])('%s storage', (kind) => {
  it('stores, reads back and removes a document under its bucket and key', async () => {
    const storage = stores[kind]!();
    const key = 'org-1/booking-1/1795000000000-note.pdf';
    const body = Buffer.from('%PDF-1.4 test');
    await storage.put('booking-documents', key, body, 'application/pdf');
    expect(await storage.get('booking-documents', key)).toEqual(body);
    await storage.remove('booking-documents', key);
    expect(await storage.get('booking-documents', key)).toBeNull();
  });

  it('answers null for a key that was never stored', async () => {
    expect(await stores[kind]!().get('booking-documents', 'nope/missing.pdf')).toBeNull();
  });
});

describe('local storage', () => {
  it('never overwrites an existing object and refuses keys that climb out of the bucket', async () => {
    const storage = stores.local!();
    await storage.put('booking-documents', 'a/b.pdf', Buffer.from('one'), 'application/pdf');
    await expect(storage.put('booking-documents', 'a/b.pdf', Buffer.from('two'), 'application/pdf')).rejects.toThrow();
    expect(String(await storage.get('booking-documents', 'a/b.pdf'))).toBe('one');
    await expect(storage.put('booking-documents', '../../escape.pdf', Buffer.from('x'), 'application/pdf')).rejects.toThrow(/Invalid storage key/);
  });
});
