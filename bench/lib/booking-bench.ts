// What the booking benchmarks share: weekdays to book on, the load generator in its own process,
// and the database's ceiling for the booking statement (no HTTP, validation or JSON).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { weekdayOf } from '../../domain/slot-grid';
import type { Database } from '../../server/db/client';
import { bookSlotFast } from '../../server/modules/bookings/book-slot-fast';
import { orgRules } from '../../server/modules/bookings/org-rules';
import { bookableWindows } from '../../server/modules/bookings/slot-windows';
import type { LoadPlan, LoadReport } from './booking-load';

/** The next `count` weekdays after `from` ('YYYY-MM-DD'). */
export function weekdaysAfter(from: string, count: number): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`) + 86_400_000; days.length < count; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    if (!['sat', 'sun'].includes(weekdayOf(date))) days.push(date);
  }
  return days;
}

/** Runs the load generator in its own process (it must not share the server's event loop). */
export function spawnLoad(plan: LoadPlan): Promise<LoadReport> {
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

/** Runs bookSlotFast directly from `callers` concurrent loops for `durationS` seconds. */
export async function databaseCeiling(database: Database, orgId: string, dates: string[], slots: string[], durationS: number, now: Date, callers = 100) {
  // Random picks over the same dates and slots as the HTTP clients (a fresh organization).
  const rules = (await orgRules(database, orgId))!;
  let n = 0;
  let commits = 0;
  const started = performance.now();
  const deadline = started + durationS * 1000;
  const caller = async () => {
    while (performance.now() < deadline) {
      const i = ++n;
      const windows = bookableWindows(rules.sites, dates[Math.floor(Math.random() * dates.length)]!, slots[Math.floor(Math.random() * slots.length)]!, 30, now);
      const booked = await bookSlotFast(database, {
        rules,
        windows,
        vehicle: { heightM: 3.5, lengthM: 12, needs: [] },
        record: {
          id: randomUUID(),
          org_id: orgId,
          tsr_number: `TSR-DB-${i}`,
          tenant_name: 'Ceiling Freight',
          tenant_email: 'ceiling@bench.example',
          booking_type: 'delivery',
          vehicle_type: 'rigid',
          vehicle_registration: `DB${i}`,
          vehicle_height_mm: 3500,
          vehicle_height_m: 3.5,
          expected_duration_min: 30,
          driver_induction_completed: true,
          status: 'pending',
          source: 'portal',
          manage_token_hash: randomUUID(),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        },
        audit: { details: { source: 'portal', documents: 0 }, ip: '127.0.0.1', at: now },
        mail: [
          ['booking.received', ['ceiling@bench.example']],
          ['booking.new_request', []],
        ],
        mailPayload: { documents: 0 },
      });
      if (booked && booked !== 'full') commits++;
    }
  };
  await Promise.all(Array.from({ length: callers }, caller));
  const elapsedMs = performance.now() - started;
  return { commits, elapsedMs, perS: commits / (elapsedMs / 1000) };
}

