// Serves what the browser's plate OCR (web/lib/plate-ocr.ts) loads, from node_modules, under the
// versioned paths of domain/plate-ocr-config.ts: tesseract.js's worker script, the LSTM cores
// (WebAssembly inside JavaScript) and the English trained data. Nothing comes from a CDN.
//
// The paths carry the package versions, so every file is cached for a year (immutable). The
// JavaScript files (~3.9 MB each, base64 WebAssembly) are sent gzipped (~1.5 MB) to browsers that
// accept it, compressed once on first request and kept in memory; the trained data is already
// gzipped (~2.9 MB) and is sent as it is (the worker unzips it).
//
// The worker script gets its own Content-Security-Policy: a worker started from a URL runs under
// the policy sent with its script, and compiling the core's WebAssembly needs 'wasm-unsafe-eval'.
// The app's pages keep their stricter policy.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OCR_CORE_FILES, OCR_CORE_PATH, OCR_LANG_DATA, OCR_LANG_PATH, OCR_LANGUAGE, OCR_WORKER_PATH } from '../../domain/plate-ocr-config';
import { notFound } from '../plugins/errors';

const gzip = promisify(zlib.gzip);
const require = createRequire(import.meta.url);

export const OCR_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The policy the OCR worker runs under: our scripts, WebAssembly, fetches to us; nothing else. */
export const OCR_WORKER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";
const JAVASCRIPT = 'text/javascript; charset=utf-8';

type Asset = { file: string; contentType: string; compressible: boolean; csp?: string };

function assetTable(): Map<string, Asset> {
  const coreDir = path.dirname(require.resolve('tesseract.js-core/package.json'));
  const langDir = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), OCR_LANG_DATA);
  return new Map<string, Asset>([
    [OCR_WORKER_PATH, { file: require.resolve('tesseract.js/dist/worker.min.js'), contentType: JAVASCRIPT, compressible: true, csp: OCR_WORKER_CSP }],
    ...OCR_CORE_FILES.map((name): [string, Asset] => [`${OCR_CORE_PATH}/${name}`, { file: path.join(coreDir, name), contentType: JAVASCRIPT, compressible: true }]),
    [`${OCR_LANG_PATH}/${OCR_LANGUAGE}.traineddata.gz`, { file: path.join(langDir, `${OCR_LANGUAGE}.traineddata.gz`), contentType: 'application/octet-stream', compressible: false }],
  ]);
}

const acceptsGzip = (request: FastifyRequest) => /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

/** Fastify plugin: GET (and HEAD) for every OCR asset, 404 for anything else under the OCR paths. */
export async function ocrAssetRoutes(app: FastifyInstance): Promise<void> {
  const assets = assetTable();
  const gzipped = new Map<string, Promise<Buffer>>();

  const compressed = (asset: Asset) => {
    let pending = gzipped.get(asset.file);
    if (!pending) {
      pending = fs.promises.readFile(asset.file).then((raw) => gzip(raw, { level: 9 }));
      // A failure is not remembered: the next request tries again.
      pending.catch(() => gzipped.delete(asset.file));
      gzipped.set(asset.file, pending);
    }
    return pending;
  };

  const send = async (asset: Asset, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('content-type', asset.contentType).header('cache-control', OCR_CACHE_CONTROL);
    if (asset.csp) reply.header('content-security-policy', asset.csp);
    if (asset.compressible) {
      reply.header('vary', 'accept-encoding');
      if (acceptsGzip(request)) {
        const body = await compressed(asset);
        return reply.header('content-encoding', 'gzip').header('content-length', body.length).send(body);
      }
    }
    const { size } = await fs.promises.stat(asset.file);
    return reply.header('content-length', size).send(fs.createReadStream(asset.file));
  };

  for (const [url, asset] of assets) {
    app.get(url, { schema: { hide: true } }, (request, reply) => send(asset, request, reply));
  }
  // Anything else under the OCR folders (another core, another version) is not ours to serve.
  app.get('/ocr/*', { schema: { hide: true } }, async () => {
    throw notFound('OCR file');
  });
}
