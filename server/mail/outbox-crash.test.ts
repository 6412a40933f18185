import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { projectRoot } from '../paths';
import { freePort } from '../test/free-port';

// A booking whose commit succeeded but whose process died before its mail went out: the mail is
// in the outbox table, and the next start delivers it, exactly once. Real processes, real kill -9.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-crash-'));
const outboxDir = path.join(dataDir, 'outbox');
const children: ChildProcess[] = [];

/** Starts the real server (from source) on the shared data directory and waits until it answers. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SKIP_WEB_BUILD: 'true',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_DISABLED: 'true',
      PUBLIC_URL: 'http://baywise.test',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not answer within 60 s: ${stderr}`);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Delivered messages (decoded) that mention `text`. */
async function mailsMentioning(text: string): Promise<string[]> {
  if (!fs.existsSync(outboxDir)) return [];
  const files = fs.readdirSync(outboxDir).filter((f) => f.endsWith('.eml'));
  const mails = await Promise.all(files.map((f) => simpleParser(fs.readFileSync(path.join(outboxDir, f)))));
  return mails.filter((m) => `${m.subject}\n${m.text}`.includes(text)).map((m) => m.subject ?? '');
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A bookable slot on one of the next weekdays at Acme's North Terminal, for a 3 m rigid truck. */
async function findSlot(url: string): Promise<{ orgId: string; date: string; slot: string }> {
  const info = await (await fetch(`${url}/api/public/booking-info`)).json();
  const org = info.organizations.find((o: { name: string }) => o.name === 'Acme Logistics');
  for (let days = 2; days < 14; days++) {
    const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const res = await fetch(`${url}/api/public/availability`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orgId: org.id, date, durationMin: 30, vehicleHeightM: 3 }),
    });
    const grid = await res.json();
    const slot = grid.slots?.find((s: { freeBays: number }) => s.freeBays > 0);
    if (slot) return { orgId: org.id, date, slot: slot.time };
  }
  throw new Error('no free slot in the next two weeks');
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('mail outbox across a crash', () => {
  it('delivers the confirmation of a committed booking after kill -9, exactly once', async () => {
    // An SMTP server that accepts the connection and never answers: delivery hangs mid-flight.
    let connected!: () => void;
    const smtpConnected = new Promise<void>((resolve) => (connected = resolve));
    const sockets: net.Socket[] = [];
    const silentSmtp = net.createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silentSmtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (silentSmtp.address() as net.AddressInfo).port;

    try {
      const first = await startServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
      const { orgId, date, slot } = await findSlot(first.url);
      const reference = `TSR-CRASH-${Date.now()}`;
      const res = await fetch(`${first.url}/api/public/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          orgId,
          tsrNumber: reference,
          tenantName: 'Crash Test Haulage',
          contactName: 'Kim Crash',
          tenantEmail: 'kim@crash.example',
          date,
          slot,
          expectedDurationMin: 30,
          vehicleType: 'rigid',
          vehicleRegistration: 'CRASH1',
          vehicleHeightM: 3,
          driverInductionCompleted: true,
          termsAccepted: true,
        }),
      });
      expect(res.status).toBe(201);
      const manageUrl: string = (await res.json()).manageUrl;

      await smtpConnected; // the worker is mid-delivery
      first.child.kill('SIGKILL');
      await exited(first.child);
      expect(await mailsMentioning(reference)).toEqual([]);

      // Restart without SMTP: mail goes to the local outbox folder.
      const second = await startServer({});
      await waitFor(async () => (await mailsMentioning(manageUrl)).length > 0, 'the confirmation after restart');
      second.child.kill('SIGTERM');
      await exited(second.child);

      // A further start finds nothing left to send.
      const third = await startServer({});
      third.child.kill('SIGTERM');
      await exited(third.child);

      expect(await mailsMentioning(manageUrl)).toHaveLength(1); // the haulier's confirmation, once
      expect(await mailsMentioning(reference)).toHaveLength(2); // and the admins' notice, once

      const database = await openDatabase({ dataDir, template: false });
      try {
        const rows = await database.query<{ kind: string; status: string }>(
          "select kind, status from mail_outbox where payload->>'bookingId' = (select id::text from bookings where tsr_number = $1) order by kind",
          [reference],
        );
        expect(rows).toEqual([
          { kind: 'booking.new_request', status: 'sent' },
          { kind: 'booking.received', status: 'sent' },
        ]);
      } finally {
        await database.close();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      silentSmtp.close();
    }
  }, 180_000);
});
