import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestApp, databaseKinds, type TestApp } from './test/harness';

// Issue 22 item 16: a repeat visit revalidates nothing it need not. The build's hashed files
// (web/dist/assets/*-<hash>.*) are cached for a year and never revalidated (immutable), in every
// encoding the browser may get; index.html and the unhashed files are revalidated every time.

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe.each(databaseKinds)('web assets’ caching on %s', (kind) => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dist: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-dist-'));
    fs.mkdirSync(path.join(dist, 'assets', 'nested'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Baywise</title><script type="module" src="/assets/index-B7xQ2f9a.js"></script>');
    const js = 'console.log("baywise");'.repeat(100);
    for (const file of ['assets/index-B7xQ2f9a.js', 'assets/nested/chunk-Dk3pQ0z1.js']) {
      fs.writeFileSync(path.join(dist, file), js);
      fs.writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(js));
      fs.writeFileSync(path.join(dist, `${file}.gz`), gzipSync(js));
    }
    fs.writeFileSync(path.join(dist, 'assets', 'index-C1a2B3c4.css'), 'body{margin:0}');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await buildApp(t.ctx, { webDist: dist });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves hashed assets immutable for a year, in every encoding, and revalidates the rest', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      for (const url of ['/assets/index-B7xQ2f9a.js', '/assets/nested/chunk-Dk3pQ0z1.js', '/assets/index-C1a2B3c4.css']) {
        const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
        expect(res.statusCode, `${url} ${encoding}`).toBe(200);
        expect(res.headers['cache-control'], `${url} ${encoding}`).toBe(IMMUTABLE);
      }
    }
    const br = await app.inject({ method: 'GET', url: '/assets/index-B7xQ2f9a.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');

    // The page itself (any app route) and files without a hash: asked again each time.
    for (const url of ['/', '/org/dashboard', '/index.html']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).not.toContain('immutable');
    // A missing asset is a 404, never the page cached for a year.
    const missing = await app.inject({ method: 'GET', url: '/assets/index-XXXXXXXX.js' });
    expect(missing.headers['cache-control'] ?? '').not.toContain('immutable');
  });
});
