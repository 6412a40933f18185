import { and, eq, gt } from 'drizzle-orm';
import { languageOr } from '../../domain/languages';
import { MAX_REMINDER_HOURS, readOrgSettings } from '../../domain/org-settings';
import type { AppContext } from '../context';
import { bookingReminders, bookings } from '../db/schema';
import { enqueueMail } from '../mail/outbox';
import { arrivalCodeFor } from '../modules/bookings/arrival-code';
import { reminderSmsBody, smsPhoneOf } from '../modules/bookings/booking-sms';
import { enqueueSms } from '../sms/sms-outbox';

// Reminders before the slot (issue 26 item 4, decision 042), run by the job runner every minute.
// For each approved booking still ahead, the one reminder due now is the organization's offset
// nearest to the start whose moment has passed (reminders.hoursBefore, default 24 h and 2 h), and
// only if that moment came after the booking was confirmed (created or approved): a booking made
// or approved 3 h before its start gets the 2 h reminder, not a late "24 h" one as well, and a
// job that was down for a while sends the nearest reminder only. Each is recorded in
// booking_reminders (primary key: booking, offset, channel) with ON CONFLICT DO NOTHING in the same
// transaction as its outbox row, so of two processes running the job at once exactly one queues it.

export type ReminderCandidate = { startTime: Date; confirmedAt: Date; hoursBefore: readonly number[] };

/** The offset (minutes) of the reminder due now for a booking, or null when none is. */
export function dueReminderOffset(candidate: ReminderCandidate, now: Date): number | null {
  if (candidate.startTime <= now) return null;
  let nearest: number | null = null;
  for (const hours of candidate.hoursBefore) {
    const minutes = hours * 60;
    const moment = candidate.startTime.getTime() - minutes * 60_000;
    if (moment > now.getTime() || moment < candidate.confirmedAt.getTime()) continue;
    if (nearest === null || minutes < nearest) nearest = minutes;
  }
  return nearest;
}

type Row = {
  id: string;
  org_id: string;
  start_time: Date | string;
  end_time: Date | string;
  created_at: Date | string;
  approved_at: Date | string | null;
  tenant_email: string;
  tenant_phone: string | null;
  language: string;
  tsr_number: string;
  settings: unknown;
  site_name: string;
  time_zone: string;
  bay_name: string;
  email_sent: number[] | null;
  sms_sent: number[] | null;
};

export type ReminderRun = { email: number; sms: number };

/** Queues every reminder due now; returns how many this run queued (another process's are not counted). */
export async function sendDueReminders(ctx: AppContext): Promise<ReminderRun> {
  const now = ctx.clock.now();
  const horizon = new Date(now.getTime() + MAX_REMINDER_HOURS * 3_600_000);
  // Approved only: a pending request may still be declined, and from checked in on the truck is here.
  const rows = await ctx.database.query<Row>(
    `select b.id, b.org_id, b.start_time, b.end_time, b.created_at, b.approved_at, b.tenant_email, b.tenant_phone, b.tsr_number, b.language,
            o.settings, s.name as site_name, s.time_zone, y.name as bay_name,
            array(select r.offset_minutes from booking_reminders r where r.booking_id = b.id and r.channel = 'email') as email_sent,
            array(select r.offset_minutes from booking_reminders r where r.booking_id = b.id and r.channel = 'sms') as sms_sent
       from bookings b
       join organizations o on o.id = b.org_id
       join sites s on s.id = b.site_id
       join bays y on y.id = b.bay_id
      where b.status = 'approved' and b.start_time > $1 and b.start_time <= $2
      order by b.start_time`,
    [now.toISOString(), horizon.toISOString()],
  );
  const run: ReminderRun = { email: 0, sms: 0 };
  const settingsByOrg = new Map<string, readonly number[]>();
  for (const row of rows) {
    let hoursBefore = settingsByOrg.get(row.org_id);
    if (!hoursBefore) {
      hoursBefore = readOrgSettings(row.settings).reminders.hoursBefore;
      settingsByOrg.set(row.org_id, hoursBefore);
    }
    const startTime = new Date(row.start_time);
    const created = new Date(row.created_at);
    const approved = row.approved_at ? new Date(row.approved_at) : created;
    const offset = dueReminderOffset({ startTime, confirmedAt: approved > created ? approved : created, hoursBefore }, now);
    if (offset === null) continue;
    const phone = smsPhoneOf(ctx, row.tenant_phone);
    const needsEmail = !(row.email_sent ?? []).map(Number).includes(offset);
    const needsSms = !!phone && !(row.sms_sent ?? []).map(Number).includes(offset);
    if (!needsEmail && !needsSms) continue;
    const queued = await ctx.database.db.transaction(async (tx) => {
      // Re-read under a lock: a booking cancelled or moved since the scan gets nothing.
      const [current] = await tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.orgId, row.org_id), eq(bookings.id, row.id), eq(bookings.status, 'approved'), eq(bookings.startTime, startTime), gt(bookings.startTime, now)))
        .for('update');
      if (!current) return { email: false, sms: false };
      const claim = async (channel: 'email' | 'sms') =>
        (
          await tx
            .insert(bookingReminders)
            .values({ bookingId: row.id, offsetMinutes: offset, channel, sentAt: now })
            .onConflictDoNothing()
            .returning({ id: bookingReminders.bookingId })
        ).length > 0;
      const email = needsEmail && (await claim('email'));
      if (email) {
        await enqueueMail(tx, now, [
          { kind: 'booking.reminder', orgId: row.org_id, recipients: [row.tenant_email], payload: { bookingId: row.id, hoursBefore: offset / 60 } },
        ]);
      }
      const sms = needsSms && (await claim('sms'));
      if (sms) {
        const facts = {
          reference: row.tsr_number,
          siteName: row.site_name,
          bayName: row.bay_name,
          timeZone: row.time_zone,
          startTime,
          endTime: new Date(row.end_time),
          language: languageOr(row.language),
        };
        await enqueueSms(tx, now, [{ kind: 'booking.reminder', orgId: row.org_id, to: phone!, body: reminderSmsBody(facts, arrivalCodeFor(ctx.authSecret, row.id)) }]);
      }
      return { email, sms };
    });
    if (queued.email) run.email += 1;
    if (queued.sms) run.sms += 1;
  }
  if (run.email > 0) ctx.mailWorker?.kick();
  if (run.sms > 0) ctx.smsWorker?.kick();
  return run;
}
