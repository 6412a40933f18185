// Measures `npm start` boot time: first start on an empty data directory (migrations + demo seed)
// and a later start on the same directory, until GET /api/health answers 200.
// Run: npx tsx bench/startup.ts   (the web build is assumed current, as after npm install)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const port = 3390;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-bench-start-'));

async function timeStart(label: string): Promise<number> {
  const started = performance.now();
  const child = spawn('npx', ['tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const ms = performance.now() - started;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  console.log(`${label}: ${(ms / 1000).toFixed(2)} s`);
  return ms;
}

const first = await timeStart('first start (empty data dir: migrate + seed)');
const later: number[] = [];
for (let i = 0; i < 3; i++) later.push(await timeStart(`later start #${i + 1}`));
console.log(`startup first: ${(first / 1000).toFixed(2)} s, later (median of 3): ${(later.sort((a, b) => a - b)[1]! / 1000).toFixed(2)} s`);
fs.rmSync(dataDir, { recursive: true, force: true });
