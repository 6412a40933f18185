// Every screen, as the people who use it open it: Debian's Chromium against `npm start` (the
// production build, embedded database, demo data). Each role signs in once (super admin, org
// admin, dock master; the public pages need no one), then every screen of that role is opened by
// a full navigation and timed until its data is shown: no API request in flight and none for
// 300 ms, and no loader ('Loading...', a Mantine loader, aria-busy) left on the page. The time is
// from navigation start to the later of the last API answer and the last loader leaving.
// Prints `slowest screen: NAME N ms (median M ms over K screens; target ≤ 1000 ms: met)` with the
// median of BENCH_SCREEN_RUNS visits per screen (default 3, the first visit of each is a warm-up).
// Run alone: npx tsx bench/screens.ts
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../domain/constants';
import { SERVER_NODE_FLAGS } from '../scripts/server-bundle.mjs';
import { freePort } from '../server/test/free-port';
import { envInt, summarize } from './lib/stats';

const TARGET_MS = 1000;
const QUIET_MS = 300;
const runs = envInt('BENCH_SCREEN_RUNS', 3);
const root = path.resolve(import.meta.dirname, '..');

type Role = { name: string; signIn: (page: Page) => Promise<void>; screens: string[] };

const chooseOption = async (page: Page, label: string, option: string) => {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

const roles: Role[] = [
  {
    name: 'public',
    signIn: async () => undefined,
    screens: ['/', '/book', '/book/request', '/book/help', '/book/terms', '/login', '/signup', '/reset-password', '/orgadmin', '/dockmaster', '/superadmin'],
  },
  {
    name: 'org admin',
    signIn: async (page) => {
      await page.goto('/login');
      await page.getByLabel('Email').fill('admin@acme.test');
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL('**/org/dashboard');
    },
    screens: [
      '/org/dashboard',
      '/org/schedule',
      '/org/bookings',
      '/org/bookings/new',
      '/org/bays',
      '/org/blackouts',
      '/org/tenants',
      '/org/ops/live',
      '/org/ops/scan',
      '/org/reports',
      '/org/settings',
      '/org/settings/number-plates',
    ],
  },
  {
    name: 'dock master',
    signIn: async (page) => {
      await page.goto('/dockmaster');
      await chooseOption(page, 'Site', 'North Terminal — Acme Logistics');
      await page.getByLabel('Employee ID').fill('D1001');
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Access Dock Operations' }).click();
      await page.waitForURL('**/dockmaster/dashboard');
    },
    screens: ['/dockmaster/dashboard', '/dockmaster/queue', '/dockmaster/scan'],
  },
  {
    name: 'super admin',
    signIn: async (page) => {
      await page.goto('/superadmin');
      await page.getByLabel('Administrator Email').fill('super@baywise.test');
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
      await page.waitForURL('**/superadmin/dashboard');
    },
    screens: [
      '/superadmin/dashboard',
      '/superadmin/organizations',
      '/superadmin/organizations/:acme',
      '/superadmin/usage',
      '/superadmin/plans',
      '/superadmin/audit',
      '/superadmin/settings',
      '/superadmin/security',
    ],
  },
];

const LOADERS = 'text=Loading..., .mantine-Loader-root, [aria-busy="true"], .mantine-Skeleton-root';

/** Opens `url` and answers how long until its data is shown (see the header). */
async function timeScreen(page: Page, url: string): Promise<number> {
  let inFlight = 0;
  let lastApiAt = 0;
  const isApi = (u: string) => u.includes('/api/') && !u.includes('/api/realtime');
  const started = performance.now();
  const onRequest = (request: { url: () => string }) => {
    if (isApi(request.url())) inFlight++;
  };
  const onDone = (request: { url: () => string }) => {
    if (!isApi(request.url())) return;
    inFlight--;
    lastApiAt = performance.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    let loadersGoneAt = performance.now();
    const deadline = started + 30_000;
    while (performance.now() < deadline) {
      const loaders = await page.locator(LOADERS).filter({ visible: true }).count();
      const now = performance.now();
      if (loaders > 0) loadersGoneAt = now;
      if (loaders === 0 && inFlight <= 0 && now - Math.max(lastApiAt, started) >= QUIET_MS) {
        return Math.max(lastApiAt, loadersGoneAt) - started;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`${url}: still loading after 30 s`);
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
}

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-screens-bench-'));
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_DISABLED: 'true' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
let browser: Browser | undefined;
let failed = false;
try {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const orgs = (await (await fetch(`${base}/api/public/organizations`)).json()) as Array<{ id: string; name: string }>;
  const acmeId = orgs.find((o) => o.name === 'Acme Logistics')!.id;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const results: Array<{ name: string; ms: number }> = [];
  for (const role of roles) {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    try {
      await role.signIn(page);
      for (const screen of role.screens) {
        const url = screen.replace(':acme', acmeId);
        const times: number[] = [];
        for (let run = 0; run <= runs; run++) times.push(await timeScreen(page, url));
        const median = summarize(times.slice(1)).median;
        results.push({ name: `${role.name} ${screen}`, ms: median });
        console.log(`${role.name} ${screen}: median ${median.toFixed(0)} ms (first visit ${times[0]!.toFixed(0)} ms)`);
      }
    } catch (error) {
      failed = true;
      console.error(`FAILED: ${role.name}: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      await context.close();
    }
  }
  if (results.length > 0) {
    const slowest = results.reduce((a, b) => (b.ms > a.ms ? b : a));
    const median = summarize(results.map((r) => r.ms)).median;
    console.log(
      `slowest screen: ${slowest.name} ${slowest.ms.toFixed(0)} ms (median ${median.toFixed(0)} ms over ${results.length} screens; ` +
        `target ≤ ${TARGET_MS} ms: ${slowest.ms <= TARGET_MS ? 'met' : 'NOT met'}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs)`,
    );
  }
} catch (error) {
  failed = true;
  console.error(`FAILED: ${(error as Error).message}`);
} finally {
  await browser?.close();
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
