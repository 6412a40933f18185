import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { bookingReminders } from '../../db/schema';
import { readOrgSettingsOf } from '../org-settings/org-settings.service';

/**
 * A booking moved to another start owes the reminders of its new time, not those sent for the old
 * one (server/jobs/booking-reminders.ts). The rows of the old time are forgotten; a reminder whose
 * moment for the new start has already passed is recorded as done, so the job does not send a
 * "tomorrow" reminder for a slot that is now two hours away (the move's own e-mail told the haulier).
 */
export async function resetRemindersAfterMove(tx: Tx, booking: { id: string; orgId: string }, newStart: Date, now: Date): Promise<void> {
  await tx.delete(bookingReminders).where(eq(bookingReminders.bookingId, booking.id));
  const { hoursBefore } = (await readOrgSettingsOf(tx, booking.orgId)).reminders;
  const passed = hoursBefore.filter((hours) => newStart.getTime() - hours * 3_600_000 <= now.getTime());
  if (passed.length === 0) return;
  await tx
    .insert(bookingReminders)
    .values(passed.flatMap((hours) => (['email', 'sms'] as const).map((channel) => ({ bookingId: booking.id, offsetMinutes: hours * 60, channel, sentAt: now }))))
    .onConflictDoNothing();
}
