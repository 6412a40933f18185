import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import type { AffectedOutcome } from '../../../../domain/affected-bookings';
import type { BlackoutItem } from '../../../../domain/org-blackouts';

// How blackouts read on screen: always on the site's own wall clock, never the browser's.

/** 'Tue 24 Nov 2026' for a site-local 'YYYY-MM-DD'. */
export function formatDay(date: string): string {
  return format(new Date(`${date}T12:00:00`), 'EEE d MMM yyyy');
}

/** 'Tue 24 Nov 2026, 06:00–12:00', or 'Fri 27 Nov 2026 18:00 – Mon 30 Nov 2026 06:00' across days. */
export function formatBlackoutSpan(item: Pick<BlackoutItem, 'startTime' | 'endTime' | 'timeZone'>): string {
  const start = new TZDate(item.startTime, item.timeZone);
  const end = new TZDate(item.endTime, item.timeZone);
  const endsAtMidnight = format(end, 'HH:mm') === '00:00';
  const sameDay = format(start, 'yyyy-MM-dd') === format(end, 'yyyy-MM-dd');
  const dayBeforeEnd = format(new TZDate(end.getTime() - 1, item.timeZone), 'yyyy-MM-dd');
  if (sameDay) return `${format(start, 'EEE d MMM yyyy, HH:mm')}–${format(end, 'HH:mm')}`;
  if (endsAtMidnight && dayBeforeEnd === format(start, 'yyyy-MM-dd')) return `${format(start, 'EEE d MMM yyyy, HH:mm')}–24:00`;
  return `${format(start, 'EEE d MMM yyyy HH:mm')} – ${format(end, 'EEE d MMM yyyy HH:mm')}`;
}

/** 'Tue 24 Nov 2026 06:00' of an instant at the site. */
export function formatSiteTime(iso: string, timeZone: string): string {
  return format(new TZDate(iso, timeZone), 'EEE d MMM yyyy HH:mm');
}

/** What happened to the bookings in the way: '2 bookings moved to another bay, 1 kept'. */
export function describeOutcomes(outcomes: AffectedOutcome[]): string | null {
  if (outcomes.length === 0) return null;
  const count = (kind: AffectedOutcome['outcome']) => outcomes.filter((o) => o.outcome === kind).length;
  const plural = (n: number) => `${n} booking${n === 1 ? '' : 's'}`;
  const parts = [
    count('moved') ? `${plural(count('moved'))} moved to another bay` : '',
    count('cancelled') ? `${plural(count('cancelled'))} cancelled (hauliers e-mailed)` : '',
    count('kept') ? `${plural(count('kept'))} kept` : '',
    count('not_moved') ? `${plural(count('not_moved'))} could not be moved (no free compatible bay) and stay` : '',
    count('skipped') ? `${plural(count('skipped'))} left as they were` : '',
  ].filter(Boolean);
  return parts.join(', ');
}
