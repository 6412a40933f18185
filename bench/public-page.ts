// The public pages' weight and speed, in Debian's Chromium against `npm start` (the production
// build, embedded database, demo data): the JavaScript each public page loads on a first visit
// (bytes on the wire, as the server sends them), and how long /book/request takes until its form
// is usable (the Company Name field and the Submit button shown, the organizations and sites loaded).
// Prints `public page JS: N KB gz` (the heaviest public page) and `form ready: N ms` (median).
// Run alone: npx tsx bench/public-page.ts        Knobs: BENCH_FORM_RUNS (default 7).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { envInt } from './lib/stats';
import { freePort } from '../server/test/free-port';

const runs = envInt('BENCH_FORM_RUNS', 7);
const root = path.resolve(import.meta.dirname, '..');
const PUBLIC_PAGES = ['/', '/book', '/book/request', '/book/help', '/book/terms'];

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-page-bench-'));
const server = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_DISABLED: 'true' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
let browser: Browser | undefined;
try {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

  // Weight: a fresh browser context per page (empty cache), every script response counted.
  // The browser asks for brotli; the target is in gzip (what every client accepts), so each script
  // is fetched again with gzip only and counted both ways.
  // (Content-Length is the size on the wire: fetch would hand back the body decompressed.)
  const gzipBytes = async (url: string) => {
    const response = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    const body = await response.arrayBuffer();
    return Number(response.headers.get('content-length') ?? body.byteLength);
  };
  const weights: Array<{ page: string; kb: number; gzKb: number; files: number; encoding: string }> = [];
  for (const pagePath of PUBLIC_PAGES) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts: Promise<{ bytes: number; gzBytes: number; encoding: string }>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push(
        Promise.all([request.sizes(), request.response(), gzipBytes(request.url())]).then(([sizes, response, gzBytes]) => ({
          bytes: sizes.responseBodySize,
          gzBytes,
          encoding: response?.headers()['content-encoding'] ?? 'identity',
        })),
      );
    });
    await page.goto(base + pagePath, { waitUntil: 'networkidle' });
    const sizes = await Promise.all(scripts);
    weights.push({
      page: pagePath,
      kb: sizes.reduce((sum, s) => sum + s.bytes, 0) / 1024,
      gzKb: sizes.reduce((sum, s) => sum + s.gzBytes, 0) / 1024,
      files: sizes.length,
      encoding: [...new Set(sizes.map((s) => s.encoding))].join('/'),
    });
    await context.close();
  }
  for (const w of weights) {
    console.log(`${w.page}: ${w.kb.toFixed(1)} KB of JavaScript as sent (${w.encoding}) in ${w.files} files; ${w.gzKb.toFixed(1)} KB with gzip`);
  }

  // Speed: navigation start → the form is usable, on a cold cache each run.
  const orgs = (await (await fetch(`${base}/api/public/organizations`)).json()) as Array<{ id: string; name: string }>;
  const acme = orgs.find((o) => o.name === 'Acme Logistics')!;
  const readyTimes: number[] = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const infoLoaded = page.waitForResponse((response) => response.url().endsWith('/api/public/booking-info'));
    await page.goto(`${base}/book/request?org=${acme.id}`, { waitUntil: 'commit' });
    await Promise.all([
      infoLoaded,
      page.getByRole('textbox', { name: 'Company Name' }).waitFor({ state: 'visible' }),
      page.getByRole('button', { name: 'Submit Booking Request' }).waitFor({ state: 'visible' }),
    ]);
    readyTimes.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  readyTimes.sort((a, b) => a - b);
  const median = readyTimes[Math.floor(readyTimes.length / 2)]!;
  console.log(`form ready on ${runs} cold visits: ${readyTimes.map((t) => t.toFixed(0)).join(', ')} ms`);
  const heaviest = weights.reduce((a, b) => (b.gzKb > a.gzKb ? b : a));
  console.log(`public page JS: ${heaviest.gzKb.toFixed(0)} KB gz (${heaviest.page}; ${heaviest.kb.toFixed(0)} KB as sent with brotli; target ≤ 150 KB gz)`);
  console.log(`form ready: ${median.toFixed(0)} ms (median of ${runs} cold visits; target < 800 ms)`);
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
