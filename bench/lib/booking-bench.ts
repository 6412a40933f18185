// What the booking benchmarks share: weekdays to book on, the load generator in its own process,
// and the database's ceiling for the booking statement the HTTP path sends (no HTTP, validation or JSON).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { validateBookingRequest, type BookingRequest } from '../../domain/booking-request';
import { weekdayOf } from '../../domain/slot-grid';
import type { Database } from '../../server/db/client';
import { bookSlotFast } from '../../server/modules/bookings/book-slot-fast';
import { orgRules } from '../../server/modules/bookings/org-rules';
import { bookableWindows } from '../../server/modules/bookings/slot-windows';
import { portalBookingInput, portalQuestion } from '../../server/modules/bookings/public-booking-fast';
import { requestBody, type LoadPlan, type LoadReport } from './booking-load';
import { runWrkLoad, wrkPath } from './wrk-load';

/** The next `count` weekdays after `from` ('YYYY-MM-DD'). */
export function weekdaysAfter(from: string, count: number): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`) + 86_400_000; days.length < count; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    if (!['sat', 'sun'].includes(weekdayOf(date))) days.push(date);
  }
  return days;
}

/**
 * Runs the load generator in its own process (it must not share the server's event loop): wrk when
 * it is installed (wrk-load.ts: a third of autocannon's CPU per request), autocannon otherwise.
 */
export function spawnLoad(plan: LoadPlan): Promise<LoadReport> {
  const wrk = wrkPath();
  if (wrk) return runWrkLoad(wrk, plan);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/booking-load.ts', JSON.stringify(plan)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as LoadReport);
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

export const describeStatuses = (report: LoadReport) =>
  Object.entries(report.byStatus)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ') + (report.transportErrors ? `, transport errors: ${report.transportErrors}` : '');

/**
 * The database's ceiling for the booking statement: `callers` concurrent loops run it straight on
 * the pool for `durationS` seconds, for the requests the load generator sends (booking-load.ts
 * requestBody, same dates and slots) and with the very input the HTTP path builds for them
 * (public-booking-fast.ts portalBookingInput: tenant link, mail, record). What the HTTP path adds
 * (HTTP, JSON, validation, the answer) is left out: each request is validated once, before the clock.
 */
export async function databaseCeiling(database: Database, orgId: string, dates: string[], slots: string[], durationS: number, now: Date, callers = 100) {
  const rules = (await orgRules(database, orgId))!;
  const authSecret = randomBytes(32);
  const requests = dates.flatMap((date) => slots.map((slot) => ({ date, slot })));
  let n = 0;
  let commits = 0;
  // Request n's validated form: the 50 tenants' templates, then n's own reference, vehicle and slot
  // (plain values the validation keeps as they are; checked against a full validation below).
  const validated = (body: ReturnType<typeof requestBody>) => {
    const result = validateBookingRequest(body);
    if (!result.ok) throw new Error(`the load's request is invalid: ${result.messages.join('; ')}`);
    return result.data;
  };
  const templates = Array.from({ length: 50 }, (_, i) => validated(requestBody(orgId, 'DB', i, dates[0]!, slots[0]!)));
  const requestFor = (i: number, date: string, slot: string): BookingRequest => {
    const body = requestBody(orgId, 'DB', i, date, slot);
    return { ...templates[i % 50]!, tsrNumber: body.tsrNumber, vehicleRegistration: body.vehicleRegistration, date, slot };
  };
  if (!isDeepStrictEqual(requestFor(51, dates.at(-1)!, slots.at(-1)!), validated(requestBody(orgId, 'DB', 51, dates.at(-1)!, slots.at(-1)!)))) {
    throw new Error('the ceiling would not book what the load generator sends');
  }
  const started = performance.now();
  const deadline = started + durationS * 1000;
  const caller = async () => {
    while (performance.now() < deadline) {
      const { date, slot } = requests[Math.floor(Math.random() * requests.length)]!;
      const request = requestFor(++n, date, slot);
      const windows = bookableWindows(rules.sites, date, slot, request.expectedDurationMin, now);
      const question = portalQuestion(request, rules, windows);
      const { input } = portalBookingInput(authSecret, request, question, now, { key: null, fingerprint: null, ip: '127.0.0.1' });
      const booked = await bookSlotFast(database, input);
      if (booked && booked !== 'full') commits++;
    }
  };
  await Promise.all(Array.from({ length: callers }, caller));
  const elapsedMs = performance.now() - started;
  return { commits, elapsedMs, perS: commits / (elapsedMs / 1000) };
}
