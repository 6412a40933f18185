import { formatArrivalCode } from '../../../domain/arrival-code';
import { languageOr, type Language } from '../../../domain/languages';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { enqueueSms } from '../../sms/sms-outbox';
import { toE164 } from '../../sms/sms-sender';
import { formatSlot, mailTranslator } from './booking-mail';
import type * as repo from './bookings.repo';

// The haulier's text messages (optional channel, issue 26 item 6): "go to bay" when the dockmaster
// calls the truck, and the reminders before the slot. Queued only when SMS is configured and the
// booking has a phone number with its country code; the body is stored as queued, so it never
// holds the manage link's token (the e-mail carries the link).

// The text is in the booking's language (namespace `mail`, as its e-mails).

type SmsFacts = { reference: string; siteName: string; bayName: string; timeZone: string; startTime: Date; endTime: Date; language?: Language };

export function goToBaySmsBody(facts: SmsFacts): string {
  return mailTranslator(facts.language)('sms.goToBay', { bay: facts.bayName, site: facts.siteName, reference: facts.reference });
}

export function reminderSmsBody(facts: SmsFacts, arrivalCode: string): string {
  return mailTranslator(facts.language)('sms.reminder', {
    reference: facts.reference,
    site: facts.siteName,
    when: formatSlot(facts.startTime, facts.endTime, facts.timeZone, facts.language),
    bay: facts.bayName,
    code: formatArrivalCode(arrivalCode),
  });
}

/** The phone a text goes to, or null when SMS is off or the booking has no usable number. */
export function smsPhoneOf(ctx: AppContext, tenantPhone: string | null | undefined): string | null {
  return ctx.config.sms ? toE164(tenantPhone) : null;
}

/** "Go to bay …", queued in the transaction that moved the booking from checked in to at the bay. */
export async function queueGoToBaySms(ctx: AppContext, tx: Tx, now: Date, view: repo.BookingView): Promise<boolean> {
  const to = smsPhoneOf(ctx, view.booking.tenantPhone);
  if (!to) return false;
  const b = view.booking;
  await enqueueSms(tx, now, [
    {
      kind: 'booking.go_to_bay',
      orgId: b.orgId,
      to,
      body: goToBaySmsBody({
        reference: b.tsrNumber,
        siteName: view.siteName,
        bayName: view.bayName,
        timeZone: view.timeZone,
        startTime: b.startTime,
        endTime: b.endTime,
        language: languageOr(b.language),
      }),
    },
  ]);
  return true;
}
