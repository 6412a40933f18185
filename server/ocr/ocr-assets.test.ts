import fs from 'node:fs';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OCR_ASSET_BASE,
  OCR_CORE_FILES,
  OCR_CORE_PATH,
  OCR_CORE_VERSION,
  OCR_LANG_PATH,
  OCR_TESSERACT_VERSION,
  OCR_WORKER_PATH,
} from '../../domain/plate-ocr-config';
import { securityHeadersPlugin } from '../plugins/security-headers';
import { OCR_CACHE_CONTROL, OCR_WORKER_CSP, ocrAssetRoutes } from './ocr-assets';

const require = createRequire(import.meta.url);
const app = Fastify({ logger: false });

beforeAll(async () => {
  // A page policy like the app's (server/plugins/security-headers.ts), which the worker script must not inherit.
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], workerSrc: ["'self'", 'blob:'], connectSrc: ["'self'", 'ws:', 'wss:'] },
    },
  });
  await app.register(ocrAssetRoutes);
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('ocrAssetRoutes', () => {
  it('names the installed tesseract.js and core in its paths (an upgrade must change the paths)', () => {
    expect(OCR_TESSERACT_VERSION).toBe((require('tesseract.js/package.json') as { version: string }).version);
    expect(OCR_CORE_VERSION).toBe((require('tesseract.js-core/package.json') as { version: string }).version);
    expect(OCR_WORKER_PATH.startsWith(`${OCR_ASSET_BASE}/`)).toBe(true);
  });

  it('serves the worker script as JavaScript, cached for a year, under a policy that lets it compile WebAssembly', async () => {
    const response = await app.inject({ method: 'GET', url: OCR_WORKER_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe(OCR_CACHE_CONTROL);
    expect(response.headers['content-security-policy']).toBe(OCR_WORKER_CSP);
    expect(response.rawPayload.equals(fs.readFileSync(require.resolve('tesseract.js/dist/worker.min.js')))).toBe(true);
  });

  it('sends the cores gzipped to browsers that accept it, and as they are to others', async () => {
    const name = OCR_CORE_FILES[1];
    const original = fs.readFileSync(require.resolve(`tesseract.js-core/${name}`));
    const zipped = await app.inject({ method: 'GET', url: `${OCR_CORE_PATH}/${name}`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('accept-encoding');
    expect(zipped.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(zipped.headers['content-length'])).toBeLessThan(original.length / 2);
    expect(zlib.gunzipSync(zipped.rawPayload).equals(original)).toBe(true);
    // The page's policy still applies to the cores themselves (they run inside the worker).
    expect(zipped.headers['content-security-policy']).toContain("script-src 'self'");

    const plain = await app.inject({ method: 'GET', url: `${OCR_CORE_PATH}/${name}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(original.length);
    expect(plain.rawPayload.equals(original)).toBe(true);
  });

  it('serves every core the worker may choose and the English trained data', async () => {
    for (const name of OCR_CORE_FILES) {
      const head = await app.inject({ method: 'HEAD', url: `${OCR_CORE_PATH}/${name}` });
      expect(head.statusCode, name).toBe(200);
    }
    const data = await app.inject({ method: 'GET', url: `${OCR_LANG_PATH}/eng.traineddata.gz`, headers: { 'accept-encoding': 'gzip' } });
    expect(data.statusCode).toBe(200);
    expect(data.headers['content-type']).toBe('application/octet-stream');
    expect(data.headers['cache-control']).toBe(OCR_CACHE_CONTROL);
    // Already gzipped: sent as stored (no Content-Encoding, or the browser would unzip it first).
    expect(data.headers['content-encoding']).toBeUndefined();
    expect([...data.rawPayload.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
  });

  it('serves nothing else from node_modules', async () => {
    for (const url of [
      `${OCR_CORE_PATH}/tesseract-core.wasm.js`,
      `${OCR_CORE_PATH}/../../../package.json`,
      `${OCR_CORE_PATH}/%2e%2e%2fpackage.json`,
      '/ocr/6.0.0-6.0.0/worker.min.js',
      `${OCR_LANG_PATH}/deu.traineddata.gz`,
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
