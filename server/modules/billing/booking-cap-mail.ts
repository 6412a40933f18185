import { limitLabel, periodBounds, periodLabel } from '../../../domain/billing';
import type { MailRenderers } from '../../mail/outbox';

// The organization admins' e-mail at 80 % and 100 % of the monthly booking cap (issue 22 item 13).
// Queued with its booking_cap_alerts row by plan-limits.ts; rendered from its payload.

export const BOOKING_CAP_MAIL_KIND = 'plan.booking_cap';

export type BookingCapMailPayload = {
  orgName: string;
  planName: string;
  percent: number;
  allowed: number;
  used: number;
  /** The calendar month (UTC), 'YYYY-MM'. */
  periodKey: string;
};

function isPayload(payload: Record<string, unknown>): payload is BookingCapMailPayload {
  return (
    typeof payload.orgName === 'string' &&
    typeof payload.planName === 'string' &&
    typeof payload.percent === 'number' &&
    typeof payload.allowed === 'number' &&
    typeof payload.used === 'number' &&
    typeof payload.periodKey === 'string'
  );
}

export function renderBookingCapMail(payload: BookingCapMailPayload, recipients: string[]) {
  const month = periodLabel(payload.periodKey);
  const reopens = periodBounds(payload.periodKey).end.toLocaleDateString('en-US', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const cap = limitLabel('bookings', payload.allowed);
  const isFull = payload.percent >= 100;
  const subject = isFull
    ? `${payload.orgName} has reached its monthly booking limit (${month})`
    : `${payload.orgName} has used ${payload.percent}% of its monthly bookings (${month})`;
  const lines = isFull
    ? [
        `${payload.orgName} has made ${payload.used.toLocaleString('en-US')} bookings in ${month}: the ${payload.planName} plan allows ${cap}.`,
        '',
        `The booking portal no longer offers slots and new bookings are refused until ${reopens} (00:00 UTC). Hauliers are told only that the site is not taking more bookings this month.`,
        '',
        'Ask the platform for a larger plan to take more bookings this month.',
      ]
    : [
        `${payload.orgName} has made ${payload.used.toLocaleString('en-US')} bookings in ${month}: ${payload.percent}% of the ${cap} the ${payload.planName} plan allows.`,
        '',
        `Once the limit is reached the booking portal stops offering slots until ${reopens} (00:00 UTC). Ask the platform for a larger plan if you expect more bookings this month.`,
      ];
  return { to: recipients, subject, text: lines.join('\n') };
}

export const bookingCapMailRenderers: MailRenderers = {
  [BOOKING_CAP_MAIL_KIND]: async (_ctx, payload, recipients) => (recipients.length > 0 && isPayload(payload) ? renderBookingCapMail(payload, recipients) : null),
};
