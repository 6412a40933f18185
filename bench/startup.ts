// Measures `npm start` boot time: first start on an empty data directory (migrations + demo seed)
// and later starts on the same directory, until GET /api/health answers 200. Embedded PGlite,
// as a newcomer runs it (DATABASE_URL is removed from the child's environment). Each server runs
// in its own process group (npm → tsx → node), stopped with SIGTERM to that group, and must have
// exited before the next start.
// Run: npx tsx bench/startup.ts
// The web build is assumed current, as after `npm install` (its postinstall builds it): when it is
// missing or stale it is rebuilt first, untimed, and a line says so.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../scripts/server-bundle.mjs';
import { ensureWebBuild, isWebBuildStale } from '../server/web-build';

const FIRST_TARGET_S = 5;
const LATER_TARGET_S = 2;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

if (isWebBuildStale()) {
  const started = performance.now();
  await ensureWebBuild(() => undefined);
  console.log(`note: the web build was missing or stale; rebuilt first in ${((performance.now() - started) / 1000).toFixed(1)} s (not timed, as npm install's postinstall does)`);
}

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-bench-start-'));
const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;

async function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

async function timeStart(label: string): Promise<number> {
  if (isWebBuildStale()) {
    // Another change to web/ since the last build: rebuild untimed, or the server would (timed).
    await ensureWebBuild(() => undefined);
    console.log('note: web sources changed meanwhile; rebuilt untimed before this start');
  }
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr.trim()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM'); // the group we started
    await waitForExit(child);
  }
  const ms = performance.now() - started;
  console.log(`${label}: ${(ms / 1000).toFixed(2)} s`);
  // The port must be free again (the server is gone) before the next start is timed.
  for (let i = 0; i < 200; i++) {
    const stillUp = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      () => true,
      () => false,
    );
    if (!stillUp) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return ms;
}

const IDLE_WAIT_S = 5;

/** The server's resident memory once started and left idle (the node process itself, no npm). */
async function idleRssMb(): Promise<number> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], { env, stdio: 'ignore' });
  try {
    while (!(await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false))) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, IDLE_WAIT_S * 1000));
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
  } finally {
    child.kill('SIGTERM');
    await waitForExit(child);
  }
}

try {
  const first = await timeStart('first start (empty data dir: migrate + seed)');
  const later: number[] = [];
  for (let i = 0; i < 3; i++) later.push(await timeStart(`later start #${i + 1}`));
  const firstS = first / 1000;
  const laterS = later.sort((a, b) => a - b)[1]! / 1000;
  const met = firstS < FIRST_TARGET_S && laterS < LATER_TARGET_S;
  console.log(
    `startup first: ${firstS.toFixed(2)} s, later (median of 3): ${laterS.toFixed(2)} s ` +
      `(targets: first < ${FIRST_TARGET_S} s, later < ${LATER_TARGET_S} s: ${met ? 'met' : 'NOT met'})`,
  );
  console.log(`idle memory (npm start, PGlite, demo data, after ${IDLE_WAIT_S} s): ${await idleRssMb()} MB RSS`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
