import type { AffectedOutcome } from '../../../../domain/affected-bookings';

// What happened to the bookings a bay change affected, in one line for a toast:
// '3 bookings: 2 moved to another bay, 1 could not be moved (TSR-9: No other compatible bay is free at that time).'

const PHRASES: Record<AffectedOutcome['outcome'], string> = {
  moved: 'moved to another bay',
  not_moved: 'could not be moved',
  cancelled: 'cancelled',
  kept: 'kept on this bay',
  skipped: 'left unchanged',
};

const ORDER: AffectedOutcome['outcome'][] = ['moved', 'not_moved', 'cancelled', 'kept', 'skipped'];

/** Bookings named in a toast, at most; the rest are counted. */
const NAMED = 3;

const bookings = (n: number) => `${n} booking${n === 1 ? '' : 's'}`;

/** Which bookings stayed, and why (the first few by TSR number). */
function why(these: AffectedOutcome[]): string {
  const named = these.slice(0, NAMED).map((o) => (o.message ? `${o.tsrNumber}: ${o.message}` : o.tsrNumber));
  if (these.length > NAMED) named.push(`${these.length - NAMED} more`);
  return ` (${named.join('; ')})`;
}

/** E.g. '2 bookings cancelled.' or '3 bookings: 2 moved to another bay, 1 could not be moved (…).'; '' when none. */
export function summarizeOutcomes(outcomes: AffectedOutcome[]): string {
  if (outcomes.length === 0) return '';
  const groups = ORDER.map((kind) => ({ kind, these: outcomes.filter((o) => o.outcome === kind) })).filter((g) => g.these.length > 0);
  const phrase = ({ kind, these }: (typeof groups)[number]) =>
    `${PHRASES[kind]}${kind === 'not_moved' || kind === 'skipped' ? why(these) : ''}`;
  if (groups.length === 1) return `${bookings(outcomes.length)} ${phrase(groups[0]!)}.`;
  return `${bookings(outcomes.length)}: ${groups.map((g) => `${g.these.length} ${phrase(g)}`).join(', ')}.`;
}

/** True when some booking is still where the change left it against the admin's wish. */
export const hasUnresolved = (outcomes: AffectedOutcome[]) => outcomes.some((o) => o.outcome === 'not_moved' || o.outcome === 'skipped');
