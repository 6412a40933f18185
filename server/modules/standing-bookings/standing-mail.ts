import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { VEHICLE_TYPE_LABELS, type VehicleType } from '../../../domain/enums';
import { languageOr, type Language } from '../../../domain/languages';
import type { MailMessage } from '../../mail/mailer';
import type { MailRenderers } from '../../mail/outbox';
import { manageUrlFor } from '../bookings/booking-mail-queue';
import { manageTokenFor } from '../bookings/manage-token';
import { translatorFor } from '../../i18n/translate';
import * as repo from './standing-bookings.repo';

// The haulier's e-mails about a standing booking (issue 27 item 2, decision 045): one per series
// event — set up or approved (with the dates booked so far and those in conflict), declined,
// cancelled, changed — never one per occurrence. Queued in the transaction of the change as one
// outbox kind, rendered at delivery in the series' language (namespace `standing`).

export const STANDING_MAIL = 'standing.changed';
export const STANDING_MAIL_KINDS = ['created', 'approved', 'declined', 'cancelled', 'moved'] as const;
export type StandingMailKind = (typeof STANDING_MAIL_KINDS)[number];

/** 1 → 'Mon' / 'Mo.' / 'pon.' / 'lun.' in the mail's language (5 Jan 2026 was a Monday). */
function weekdayName(isoDay: number, language: Language): string {
  return new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 0, 4 + isoDay)));
}

function dateName(date: string, language: Language): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

type SeriesFacts = { weekdays: number[]; startLocal: string; durationMin: number; startsOn: string; endsOn: string | null };

/** The schedule in words, in the mail's language. */
export function scheduleIn(language: Language, s: SeriesFacts): string {
  const t = translatorFor(language, 'standing');
  const values = {
    days: [...s.weekdays].sort((a, b) => a - b).map((d) => weekdayName(d, language)).join(', '),
    time: s.startLocal,
    duration: s.durationMin,
    from: dateName(s.startsOn, language),
    until: s.endsOn ? dateName(s.endsOn, language) : '',
  };
  return t(s.endsOn ? 'schedule.until' : 'schedule.open', values);
}

export const standingMailRenderers: MailRenderers = {
  [STANDING_MAIL]: async (ctx, payload) => {
    if (typeof payload.standingBookingId !== 'string') return null;
    const change = (STANDING_MAIL_KINDS as readonly unknown[]).includes(payload.change) ? (payload.change as StandingMailKind) : null;
    if (!change) return null;
    const row = await repo.findSeriesForMailAnyOrg(ctx.database.db, payload.standingBookingId);
    if (!row) return null;
    const s = row.series;
    const language = languageOr(s.language);
    const t = translatorFor(language, 'standing');
    const facts = { orgName: row.orgName, siteName: row.siteName, schedule: scheduleIn(language, s), reference: s.tsrNumber };
    const lines: string[] = [t('greeting', { name: s.contactName || s.tenantName }), '', t(`${change}.body`, facts)];
    const reason = typeof payload.reason === 'string' && payload.reason ? payload.reason : null;
    if (reason) lines.push('', t('reason', { reason }));
    if (change === 'cancelled') lines.push('', t('cancelled.count', { count: Number(payload.count ?? 0) }));
    if (change === 'created' || change === 'approved' || change === 'moved') {
      const occurrences = await repo.listOccurrences(ctx.database.db, s.orgId, s.id);
      const booked = occurrences.filter((o) => o.occurrence.status === 'booked' && o.startTime && o.bookingStatus !== 'cancelled');
      const conflicts = occurrences.filter((o) => o.occurrence.status === 'conflict');
      if (booked.length > 0) {
        lines.push('', t('booked.intro', { weeksAhead: s.weeksAhead }));
        for (const o of booked) {
          const local = new TZDate(o.startTime!, row.timeZone);
          lines.push(`- ${t('booked.line', { date: dateName(o.occurrence.occurrenceDate, language), time: format(local, 'HH:mm'), bay: o.bayName ?? '' })}`);
          lines.push(`  ${manageUrlFor(ctx, manageTokenFor(ctx.authSecret, o.occurrence.bookingId!))}`);
        }
        lines.push('', t('closing'));
      }
      if (conflicts.length > 0) {
        lines.push('', t('conflicts.intro'));
        for (const o of conflicts) lines.push(`- ${t('conflict.line', { date: dateName(o.occurrence.occurrenceDate, language), message: o.occurrence.conflictMessage ?? '' })}`);
      }
      lines.push('', t('vehicle', { vehicle: `${VEHICLE_TYPE_LABELS[s.vehicleType as VehicleType] ?? s.vehicleType}, ${s.vehicleRegistration}` }));
    }
    const message: MailMessage = { to: s.tenantEmail, subject: t(`${change}.subject`, facts), text: lines.join('\n') };
    return message;
  },
};
