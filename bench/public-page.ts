// The public pages' weight and speed, in Debian's Chromium against `npm start` (the production
// build, embedded database, demo data): the JavaScript each public page loads on a first visit
// (bytes on the wire, as the server sends them), and how long /book/request takes until its form
// is usable (the Company Name field and the Submit button shown, the organizations and sites loaded).
// Prints `public page JS: N KB gz` (the heaviest public page) and `form ready: N ms` (median).
// Then the same form on a throttled phone (slow 4G, 4× CPU: `public form ready (throttled phone): N ms`)
// and a repeat visit (`repeat visit requests: N`: hashed assets that went to the server again).
// Run alone: npx tsx bench/public-page.ts        Knobs: BENCH_FORM_RUNS (default 7), BENCH_PHONE_RUNS (default 5).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { envInt } from './lib/stats';
import { freePort } from '../server/test/free-port';
import { SERVER_NODE_FLAGS } from '../scripts/server-bundle.mjs';

const runs = envInt('BENCH_FORM_RUNS', 7);
const phoneRuns = envInt('BENCH_PHONE_RUNS', 5);
const root = path.resolve(import.meta.dirname, '..');
const PUBLIC_PAGES = ['/', '/book', '/book/request', '/book/help', '/book/terms'];

/**
 * When the form became usable, as the page itself saw it: the first animation frame in which the
 * Company Name field and the Submit button are both in the document and shown (the frame that paints
 * them). A MutationObserver, installed before the page's own scripts, only asks for that check on the
 * next frame; the check (which needs the page's style) runs at most once a frame, when the browser
 * computes the style for that frame anyway. The page reports the moment on its console, so the bench
 * runs nothing in the page until then: any Playwright query or `waitForFunction` injects Playwright's
 * own script into the page (~0.25 s to compile and run on a 4×-throttled CPU) and polls it, on the
 * page's main thread, while the page is loading. The form is checked by role and name afterwards.
 */
// (A string: tsx would wrap named functions in a helper the page does not have.)
const FORM_READY_MESSAGE = 'baywise-bench:form-ready';
const NOTE_FORM_READY = {
  content: `(() => {
    let scheduled = false;
    const check = () => {
      scheduled = false;
      const submit = [...document.querySelectorAll('button[type="submit"]')].find((b) => b.textContent.includes('Submit Booking Request'));
      const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim().startsWith('Company Name'));
      const field = label && label.htmlFor ? document.getElementById(label.htmlFor) : null;
      if (submit && field && submit.checkVisibility() && field.checkVisibility()) {
        observer.disconnect();
        console.debug('${FORM_READY_MESSAGE}', performance.now());
      }
    };
    const observer = new MutationObserver(() => {
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(check);
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  })();`,
};

/** The moment the page reported (NOTE_FORM_READY), in its own clock (navigation start = 0). */
function formReadyReported(page: import('@playwright/test').Page, timeout = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the form was not shown within ${timeout} ms`)), timeout);
    page.on('console', (message) => {
      const [text, at] = message.text().split(' ');
      if (text === FORM_READY_MESSAGE) {
        clearTimeout(timer);
        resolve(Number(at));
      }
    });
  });
}

/** Navigation start → the form usable and the booking info loaded, in the page's own clock. */
async function formReadyMs(
  page: import('@playwright/test').Page,
  formShown: Promise<number>,
  infoLoaded: Promise<import('@playwright/test').Response>,
  timeout?: number,
): Promise<number> {
  const formAt = await formShown;
  const [info] = await Promise.all([
    infoLoaded,
    page.getByRole('textbox', { name: 'Company Name' }).waitFor({ state: 'visible', timeout }),
    page.getByRole('button', { name: 'Submit Booking Request' }).waitFor({ state: 'visible', timeout }),
  ]);
  // The booking info's response end, on the same clock (Resource Timing).
  const infoAt = await page.evaluate((url) => {
    const entry = performance.getEntriesByName(url).at(-1) as PerformanceResourceTiming | undefined;
    return entry?.responseEnd ?? 0;
  }, info.url());
  return Math.max(formAt, infoAt);
}

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-page-bench-'));
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], {
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
    await page.addInitScript(NOTE_FORM_READY);
    const formShown = formReadyReported(page);
    const infoLoaded = page.waitForResponse((response) => response.url().endsWith('/api/public/booking-info'));
    await page.goto(`${base}/book/request?org=${acme.id}`, { waitUntil: 'commit' });
    readyTimes.push(await formReadyMs(page, formShown, infoLoaded));
    await context.close();
  }
  readyTimes.sort((a, b) => a - b);
  const median = readyTimes[Math.floor(readyTimes.length / 2)]!;
  console.log(`form ready on ${runs} cold visits: ${readyTimes.map((t) => t.toFixed(0)).join(', ')} ms`);
  const heaviest = weights.reduce((a, b) => (b.gzKb > a.gzKb ? b : a));
  console.log(`public page JS: ${heaviest.gzKb.toFixed(0)} KB gz (${heaviest.page}; ${heaviest.kb.toFixed(0)} KB as sent with brotli; target ≤ 150 KB gz)`);
  console.log(`form ready: ${median.toFixed(0)} ms (median of ${runs} cold visits; target < 800 ms)`);

  // A phone on a slow network: DevTools' "Slow 4G" (150 ms RTT, 1.6 Mbps down, 750 kbps up) and 4×
  // CPU throttling, cold cache, median of BENCH_PHONE_RUNS visits.
  const phoneTimes: number[] = [];
  for (let run = 0; run < phoneRuns; run++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(NOTE_FORM_READY);
    const formShown = formReadyReported(page, 60_000);
    const infoLoaded = page.waitForResponse((response) => response.url().endsWith('/api/public/booking-info'), { timeout: 60_000 });
    await page.goto(`${base}/book/request?org=${acme.id}`, { waitUntil: 'commit', timeout: 60_000 });
    phoneTimes.push(await formReadyMs(page, formShown, infoLoaded, 60_000));
    await context.close();
  }
  phoneTimes.sort((a, b) => a - b);
  const phoneMedian = phoneTimes[Math.floor(phoneTimes.length / 2)]!;
  console.log(`form ready on a throttled phone, ${phoneRuns} cold visits: ${phoneTimes.map((t) => t.toFixed(0)).join(', ')} ms`);
  console.log(`public form ready (throttled phone): ${phoneMedian.toFixed(0)} ms (median; slow 4G, 4× CPU; target ≤ 2500 ms)`);

  // A repeat visit: the same browser comes back to the form; hashed assets it already holds must
  // not go to the server again (no request, not even a revalidation).
  {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/book/request?org=${acme.id}`, { waitUntil: 'networkidle' });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const sent = new Map<string, string>();
    const fromCache = new Set<string>();
    cdp.on('Network.requestWillBeSent', (event) => sent.set(event.requestId, event.request.url));
    cdp.on('Network.requestServedFromCache', (event) => fromCache.add(event.requestId));
    cdp.on('Network.responseReceived', (event) => {
      if (event.response.fromDiskCache || event.response.fromPrefetchCache) fromCache.add(event.requestId);
    });
    await page.goto(`${base}/book/request?org=${acme.id}`, { waitUntil: 'networkidle' });
    const assetRequests = [...sent].filter(([id, url]) => new URL(url).pathname.startsWith('/assets/') && !fromCache.has(id));
    console.log(`repeat visit requests: ${assetRequests.length} (hashed assets fetched or revalidated on a second visit to /book/request; target 0)`);
    await context.close();
  }
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
