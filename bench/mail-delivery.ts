// Mail delivery cost: N portal bookings are made with the booking statement (two mails each: the
// haulier's confirmation and the admins' notice), then the outbox is drained as the server's mail
// worker does, to the local outbox folder. Prints the mails/s and the database transactions per
// mail (pg_stat_database.xact_commit; the count's own queries subtracted). PostgreSQL.
// Run alone: npx tsx bench/mail-delivery.ts    Knob: BENCH_MAIL_BOOKINGS (default 300).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { drainMail } from '../server/mail/outbox';
import { mailRenderers } from '../server/mail-renderers';
import { bookSlotFast } from '../server/modules/bookings/book-slot-fast';
import { orgRules } from '../server/modules/bookings/org-rules';
import { bookableWindows } from '../server/modules/bookings/slot-windows';
import { manageTokenFor } from '../server/modules/bookings/manage-token';
import { hashToken } from '../server/auth/tokens';
import { addMember, createUser } from '../server/test/fixtures';
import { createBenchOrg, openBench } from './lib/bench-data';
import { weekdaysAfter } from './lib/booking-bench';
import { formatTimeOfDay } from '../domain/slot-grid';
import { envInt } from './lib/stats';

const N = envInt('BENCH_MAIL_BOOKINGS', 300);
const NOW = '2026-11-23T00:00:00Z';
const t = await openBench('postgres', { now: NOW });
try {
  const database = t.ctx.database;
  const org = await createBenchOrg(database, { name: 'Mail Freight', sites: 2, baysPerSite: 12 });
  const admin = await createUser(database, { email: 'admin@mail.example' });
  await addMember(database, org.orgId, admin.id, 'org_admin');
  const rules = (await orgRules(database, org.orgId))!; // made as bench/lib/booking-bench.ts databaseCeiling does
  const days = weekdaysAfter(NOW.slice(0, 10), 40);
  const slots = Array.from({ length: 32 }, (_, i) => formatTimeOfDay(6 * 60 + i * 30));
  let made = 0;
  for (let i = 0; made < N; i++) {
    const id = randomUUID();
    const windows = bookableWindows(rules.sites, days[i % 40]!, slots[Math.floor(i / 40) % 32]!, 30, new Date(NOW));
    const r = await bookSlotFast(database, {
      rules, windows, vehicle: { heightM: 3.5, lengthM: 12, needs: [] },
      record: { id, org_id: org.orgId, tsr_number: `TSR-M-${i}`, tenant_name: 'Mail Freight', tenant_email: 'm@mail.example', booking_type: 'delivery',
        vehicle_type: 'rigid', vehicle_registration: `M${i}`, vehicle_height_mm: 3500, vehicle_height_m: 3.5, expected_duration_min: 30,
        driver_induction_completed: true, status: 'pending', source: 'portal', manage_token_hash: hashToken(manageTokenFor(t.ctx.authSecret, id)),
        created_at: NOW, updated_at: NOW },
      audit: { details: { source: 'portal', documents: 0 }, ip: '127.0.0.1', at: new Date(NOW) },
      mail: [['booking.received', ['m@mail.example']], ['booking.new_request', []]],
      mailPayload: { documents: 0 },
    });
    if (r && r !== 'full') made++;
  }
  const xacts = async () => {
    await new Promise((r) => setTimeout(r, 1500));
    await database.query('select pg_stat_clear_snapshot()');
    return Number((await database.query<{ n: string }>('select xact_commit as n from pg_stat_database where datname = current_database()'))[0]!.n);
  };
  const first = await xacts();
  const calibrated = await xacts(); // nothing in between: what counting itself costs
  const started = performance.now();
  const result = await drainMail(t.ctx, mailRenderers);
  const elapsed = performance.now() - started;
  const after = await xacts();
  const transactions = after - calibrated - (calibrated - first);
  const mails = result.sent;
  console.log(
    `mail delivery: ${mails} mails of ${N} bookings in ${(elapsed / 1000).toFixed(2)} s → ${(mails / (elapsed / 1000)).toFixed(0)} mails/s; ` +
      `${transactions} database transactions (${(transactions / mails).toFixed(2)} per mail); load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
} finally {
  await t.close();
}
