// The server runs from one esbuild bundle of server/ and domain/ (dependencies stay external), so
// `npm start` pays neither a TypeScript loader nor per-file transpiling. The bundle is rebuilt
// whenever a source file is newer than it. Plain JavaScript: it runs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const bundleDir = path.join(root, 'node_modules', '.cache', 'baywise', 'server');
export const bundleEntry = path.join(bundleDir, 'main.mjs');

/**
 * The V8 flags the server runs with (decision 053), given by every launcher: `npm start`
 * (package.json says them again; a test keeps the two equal), the cluster's nodes and the
 * benchmarks. A young generation of 2 × 32 MB instead of V8's 2 × 16 MB: with 100 requests in
 * flight, a request's objects outlived the smaller one's scavenges, were copied into the old
 * generation and collected there at a higher price; Node spent 5-15 % less CPU per booking.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];
const sources = ['server', 'domain'].map((dir) => path.join(root, dir));

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'migrations') newest = Math.max(newest, newestSource(full));
    } else if ((entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) || entry.name.endsWith('.mjs')) {
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

export function isServerBundleStale() {
  if (!fs.existsSync(bundleEntry)) return true;
  const built = fs.statSync(bundleEntry).mtimeMs;
  const packageFiles = ['package.json', 'package-lock.json'].map((f) => fs.statSync(path.join(root, f)).mtimeMs);
  return Math.max(...sources.map(newestSource), ...packageFiles) > built;
}

export async function buildServerBundle() {
  const { build } = await import('esbuild');
  fs.rmSync(bundleDir, { recursive: true, force: true });
  await build({
    // The embedded database's thread (server/db/pglite-thread.ts) loads pglite-worker.mjs next to
    // the code that starts it: in the bundle, this folder.
    entryPoints: { main: path.join(root, 'server', 'main.ts'), 'pglite-worker': path.join(root, 'server', 'db', 'pglite-worker.mjs') },
    outdir: bundleDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true, // the S3 client and the web build stay lazy chunks
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

export async function ensureServerBundle() {
  if (isServerBundleStale()) await buildServerBundle();
}
