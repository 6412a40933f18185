import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeServerMessage } from '../../domain/realtime';
import { projectRoot } from '../paths';
import { openTestSocket, type TestSocket } from '../test/ws-client';

// Two real server processes on one PostgreSQL database: a booking made through process A reaches
// a socket connected to process B (LISTEN/NOTIFY), once. PostgreSQL only. How long it takes
// (the target is under a second) is bench/realtime-cluster.ts's figure, not this test's.

/** A liveness guard only: an event that never comes fails here instead of at the test's timeout. */
const EVENT_TIMEOUT_MS = 15_000;

const adminUrl = process.env.TEST_DATABASE_URL;
const DEMO_PASSWORD = 'Baywise-demo-1';

type Server = { child: ChildProcess; url: string; stderr: () => string };

/** A free port in 3700-3799, the range these tests may use. */
async function freePortInRange(): Promise<number> {
  const start = 3700 + Math.floor(Math.random() * 100);
  for (let i = 0; i < 100; i++) {
    const port = 3700 + ((start - 3700 + i) % 100);
    const isFree = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (isFree) return port;
  }
  throw new Error('no free port in 3700-3799');
}

async function startServer(databaseUrl: string, dataDir: string): Promise<Server> {
  const port = await freePortInRange();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SKIP_WEB_BUILD: 'true',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_DISABLED: 'true',
      PUBLIC_URL: 'http://baywise.test',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) return { child, url, stderr: () => stderr };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer within 60 s: ${stderr}`);
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

async function signInAsAcmeAdmin(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@acme.test', password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A bookable slot at Acme on one of the next days, for a 3 m rigid truck (real clock). */
async function findSlot(url: string, orgId: string): Promise<{ date: string; slot: string }> {
  for (let days = 2; days < 14; days++) {
    const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const res = await fetch(`${url}/api/public/availability`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orgId, date, durationMin: 30, vehicleHeightM: 3 }),
    });
    const grid = (await res.json()) as { slots?: Array<{ time: string; freeBays: number }> };
    const slot = grid.slots?.find((s) => s.freeBays > 0);
    if (slot) return { date, slot: slot.time };
  }
  throw new Error('no free slot in the next two weeks');
}

describe.runIf(adminUrl)('realtime across two server processes on one PostgreSQL', () => {
  const name = `baywise_rt_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDirs: string[] = [];
  const servers: Server[] = [];
  const sockets: TestSocket[] = [];

  const withAdmin = async (sql: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };

  beforeAll(async () => {
    await withAdmin(`create database ${name}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    for (let i = 0; i < 2; i++) dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-rt-')));
    // One after the other: the first migrates and seeds the new database, the second finds it ready.
    servers.push(await startServer(url.toString(), dataDirs[0]));
    servers.push(await startServer(url.toString(), dataDirs[1]));
  }, 150_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(servers.map(stopServer));
    await withAdmin(`drop database if exists ${name} with (force)`);
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('a booking made through process A reaches a socket on process B, and A’s own, once each', async () => {
    const [a, b] = servers;
    const tokenA = await signInAsAcmeAdmin(a.url);
    const tokenB = await signInAsAcmeAdmin(b.url);
    const orgs = (await (await fetch(`${b.url}/api/me/organizations`, { headers: { authorization: `Bearer ${tokenB}` } })).json()) as Array<{
      id: string;
      name: string;
    }>;
    const acme = orgs.find((o) => o.name === 'Acme Logistics')!;
    expect(acme).toBeDefined();

    const subscribe = async (server: Server, token: string) => {
      const socket = await openTestSocket(`${server.url.replace('http', 'ws')}/api/realtime`, [`bearer.${token}`]);
      sockets.push(socket);
      socket.send({ type: 'subscribe', orgId: acme.id });
      expect(await socket.next()).toEqual({ type: 'subscribed', orgId: acme.id, siteId: null });
      return socket;
    };
    const onB = await subscribe(b, tokenB);
    const onA = await subscribe(a, tokenA);

    const { date, slot } = await findSlot(a.url, acme.id);
    const res = await fetch(`${a.url}/api/public/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        orgId: acme.id,
        tsrNumber: `TSR-RT-${Date.now()}`,
        tenantName: 'Two Node Haulage',
        contactName: 'Nic Node',
        tenantEmail: 'nic@nodes.example',
        date,
        slot,
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: 'NODE2',
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const booking = (await res.json()) as { id: string };
    const isThisBooking = (m: RealtimeServerMessage) => m.type === 'event' && m.event.id === booking.id;

    const atB = await onB.next(isThisBooking, EVENT_TIMEOUT_MS);
    expect(atB).toMatchObject({ type: 'event', event: { entity: 'booking', action: 'created', id: booking.id, orgId: acme.id } });
    // The publishing process hears its own NOTIFY too, once.
    await onA.next(isThisBooking, EVENT_TIMEOUT_MS);
    expect(onB.received.filter(isThisBooking)).toHaveLength(1);
    expect(onA.received.filter(isThisBooking)).toHaveLength(1);
  }, 60_000);

  it('signing out through process A closes that session’s socket on process B at once (and no other socket)', async () => {
    const [a, b] = servers;
    const token = await signInAsAcmeAdmin(a.url);
    const other = await signInAsAcmeAdmin(a.url);
    const open = async (bearer: string) => {
      const socket = await openTestSocket(`${b.url.replace('http', 'ws')}/api/realtime`, [`bearer.${bearer}`]);
      sockets.push(socket);
      socket.send({ type: 'ping' });
      expect(await socket.next()).toEqual({ type: 'pong' });
      return socket;
    };
    const signedOut = await open(token);
    const stillIn = await open(other);
    const res = await fetch(`${a.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(204);
    const closed = await Promise.race([
      signedOut.closed,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the socket on B stayed open')), 2_000)),
    ]);
    expect(closed.code).toBe(4401);
    stillIn.send({ type: 'ping' });
    expect(await stillIn.next()).toEqual({ type: 'pong' });
  }, 30_000);
});
