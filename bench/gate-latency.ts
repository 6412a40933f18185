// How long a gate event takes to reach another screen (issue 10: "a gate event reaches a second
// browser's screen in under 1 s"). Against `npm start` (the production build, embedded PGlite, demo
// data) on a data directory of its own, in Debian's Chromium: a dock master's /dockmaster/dashboard
// and an org admin's /org/ops/live are open in two browser contexts; the bench then makes gate
// moves through the API as the org admin — a walk-in checked in, started at its bay, checked out,
// one vehicle after another, at a site it creates (so no demo booking can hold the bays) — and
// times each from just before the API call to the moment the change is in each page's DOM (a
// MutationObserver in the page stamps it; page and bench read the same wall clock). The path it
// measures: the API's commit, the realtime event over the WebSocket, the screen's refetch of the
// gate overview and React's render.
// Prints `gate event to second screen: N ms p95 (…)` once per screen.
// Run alone: npx tsx bench/gate-latency.ts        Knobs: BENCH_GATE_VEHICLES (default 7: 21 events).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../domain/constants';
import { envInt, summarize, type Summary } from './lib/stats';
import { freePort } from '../server/test/free-port';
import { SERVER_NODE_FLAGS } from '../scripts/server-bundle.mjs';

const TARGET_MS = 1000;
const vehicles = envInt('BENCH_GATE_VEHICLES', 7);
const WARMUP_VEHICLES = 1;
const root = path.resolve(import.meta.dirname, '..');
const ORG = 'Acme Logistics';

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-gate-bench-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  DATA_DIR: dataDir,
  SEED_DEMO: 'true',
  RATE_LIMIT_DISABLED: 'true',
  LOG_LEVEL: 'warn',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
};
delete env.DATABASE_URL; // embedded PGlite, as `npm start` runs for a newcomer and as e2e runs
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;
let browser: Browser | undefined;

let cleanedUp = false;
async function cleanUp(): Promise<void> {
  if (cleanedUp) return;
  cleanedUp = true;
  await browser?.close().catch(() => undefined);
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
// Interrupted (Ctrl-C, or `npm run bench` stopped): the server and its data directory go too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

type Json = Record<string, unknown>;

async function call<T>(method: string, url: string, token: string | null, body?: Json): Promise<T> {
  const response = await fetch(base + url, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** Picks an option of a Mantine Select by its label (as e2e/fixtures.ts does). */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Arms a MutationObserver in the page that stamps the wall-clock time (ms, sub-ms precision) at
 * which `selector` first matches (present) or stops matching (absent). Resolves once armed.
 */
async function arm(page: Page, selector: string, present: boolean): Promise<void> {
  // A string, not a function: tsx would wrap the inner function in a helper the page lacks.
  await page.evaluate(`(([sel, want]) => {
    window.__gateObserver?.disconnect();
    window.__gateHit = null;
    function check() {
      if ((document.querySelector(sel) !== null) === want && window.__gateHit === null) {
        window.__gateHit = performance.timeOrigin + performance.now();
        window.__gateObserver.disconnect();
      }
    }
    window.__gateObserver = new MutationObserver(check);
    window.__gateObserver.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    check();
  })(${JSON.stringify([selector, present])})`);
}

/** The stamp armed by arm(), waiting for it (10 s at most: a miss fails the bench). */
async function hitTime(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as unknown as { __gateHit?: number | null }).__gateHit ?? null, undefined, {
    timeout: 10_000,
    polling: 50,
  });
  return (await handle.jsonValue()) as number;
}

const now = () => performance.timeOrigin + performance.now();

try {
  // Up to 5 minutes: a stale web build is rebuilt before the server listens.
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    if (i >= 1500) throw new Error('the server did not answer /api/health within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // A site of the bench's own with a bay per walk-in (a checked-out walk-in keeps its bay's half
  // hour booked) and two to spare; walk-ins need no opening hours.
  const { access_token: token } = await call<{ access_token: string }>('POST', '/api/auth/token?grant_type=password', null, {
    email: 'admin@acme.test',
    password: DEMO_PASSWORD,
  });
  const orgs = await call<Array<{ id: string; name: string }>>('GET', '/api/public/organizations', null);
  const orgId = orgs.find((o) => o.name === ORG)!.id;
  const site = await call<{ id: string; name: string }>('POST', `/api/orgs/${orgId}/sites`, token, { name: 'Latency Yard', timeZone: 'UTC' });
  for (let i = 1; i <= vehicles + WARMUP_VEHICLES + 2; i++) {
    await call('POST', `/api/orgs/${orgId}/bays`, token, { siteId: site.id, name: `L-${String(i).padStart(2, '0')}`, heightClearanceM: 4.5 });
  }

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const viewport = { width: 1366, height: 900 };

  // Screen 1: the dock master at the site's gate.
  const dock = await (await browser.newContext({ baseURL: base, viewport })).newPage();
  await dock.goto('/dockmaster');
  await choose(dock, 'Site', `${site.name} — ${ORG}`);
  await dock.getByLabel('Employee ID').fill('D1001');
  await dock.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await dock.getByRole('button', { name: 'Access Dock Operations' }).click();
  await dock.waitForURL('**/dockmaster/dashboard');
  await dock.getByTestId('bay-grid').waitFor();

  // Screen 2: the org admin's live view of every site.
  const live = await (await browser.newContext({ baseURL: base, viewport })).newPage();
  await live.goto('/orgadmin');
  await choose(live, 'Organization', ORG);
  await live.getByLabel('Email').fill('admin@acme.test');
  await live.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await live.getByRole('button', { name: 'Access Admin Dashboard' }).click();
  await live.waitForURL('**/org/dashboard');
  await live.goto('/org/ops/live');
  await live.locator(`section[data-site="${site.name}"] [data-testid="bay-board"]`).waitFor();

  const screens = [
    {
      name: "dock master's /dockmaster/dashboard",
      page: dock,
      row: (tsr: string) => `[data-testid="live-list"] [data-tsr="${tsr}"]`,
      inProgress: (tsr: string) => `[data-testid="live-list"] [data-tsr="${tsr}"][data-status="in_progress"]`,
      samples: [] as number[],
    },
    {
      name: "org admin's /org/ops/live",
      page: live,
      row: (tsr: string) => `section[data-site="${site.name}"] [data-testid="on-site"] [data-booking="${tsr}"]`,
      inProgress: (tsr: string) => `section[data-site="${site.name}"] [data-testid="on-site"] [data-booking="${tsr}"][data-status="in_progress"]`,
      samples: [] as number[],
    },
  ];
  const apiTimes: number[] = [];

  /** One gate move: arm both screens, call the API, wait for both; records the latencies when timed. */
  async function event(timed: boolean, selectorOf: (screen: (typeof screens)[number]) => string, present: boolean, move: () => Promise<unknown>) {
    for (const screen of screens) await arm(screen.page, selectorOf(screen), present);
    const started = now();
    await move();
    const answered = now();
    const hits = await Promise.all(screens.map((screen) => hitTime(screen.page)));
    if (!timed) return;
    apiTimes.push(answered - started);
    screens.forEach((screen, i) => screen.samples.push(hits[i]! - started));
  }

  const stamp = Date.now().toString(36).toUpperCase();
  for (let v = 0; v < WARMUP_VEHICLES + vehicles; v++) {
    const timed = v >= WARMUP_VEHICLES;
    const tsrNumber = `TSR-LAT-${stamp}-${v}`;
    let bookingId = '';
    // Arrives: a walk-in, checked in.
    await event(timed, (s) => s.row(tsrNumber), true, async () => {
      const { booking } = await call<{ booking: { id: string } }>('POST', `/api/sites/${site.id}/gate/walk-ins`, token, {
        tsrNumber,
        tenantName: 'Latency Freight',
        contactName: 'Lana Latency',
        tenantEmail: `latency-${v}@haulier.test`,
        expectedDurationMin: 30,
        vehicleType: 'van',
        vehicleRegistration: `LAT${stamp.slice(-4)}${v}`,
        vehicleHeightM: 2.5,
        driverInductionCompleted: true,
        termsAccepted: true,
      });
      bookingId = booking.id;
    });
    // Called to its bay.
    await event(timed, (s) => s.inProgress(tsrNumber), true, () => call('POST', `/api/sites/${site.id}/gate/bookings/${bookingId}/start`, token, {}));
    // Leaves.
    await event(timed, (s) => s.row(tsrNumber), false, () => call('POST', `/api/sites/${site.id}/gate/bookings/${bookingId}/check-out`, token, {}));
  }

  const api: Summary = summarize(apiTimes);
  console.log(
    `gate events: ${apiTimes.length} timed (${vehicles} walk-ins × check in, start, check out; ${WARMUP_VEHICLES} more untimed first), ` +
      `API answered in median ${api.median.toFixed(0)} ms, p95 ${api.p95.toFixed(0)} ms`,
  );
  for (const screen of screens) {
    const s = summarize(screen.samples);
    console.log(`${screen.name}: ${screen.samples.map((x) => x.toFixed(0)).join(', ')} ms`);
    console.log(
      `gate event to second screen: ${s.p95.toFixed(0)} ms p95 (${screen.name}; median ${s.median.toFixed(0)} ms, max ${s.max.toFixed(0)} ms, n=${s.n}; ` +
        `target < ${TARGET_MS} ms: ${s.p95 < TARGET_MS ? 'met' : 'NOT met'})`,
    );
  }
} finally {
  await cleanUp();
}
