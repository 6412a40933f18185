import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { WITHDRAWN_BOOKING_STATUSES } from '../../domain/booking-lifecycle';
import type { BookingStatus } from '../../domain/enums';
import type { RealtimeEvent, RealtimeServerMessage } from '../../domain/realtime';
import type { AppContext } from '../context';
import { hashToken } from '../auth/tokens';
import { bookings } from '../db/schema';

// The driver's socket (issue 26): opened by the manage page with the subprotocol
// `manage.<manage token>` instead of a staff member's `bearer.<token>`. It follows one booking and
// is told only about that booking: its own events (as staff sockets get them), and — while its
// vehicle waits at the gate — a bare `{ type: 'queue' }` when another booking of its site changed,
// so the page asks again for its place in the queue. Another booking's id or data never reaches it.

export const MANAGE_PROTOCOL = 'manage.';
/** The booking was cancelled or declined: nothing left to follow. */
export const CLOSE_NOT_FOUND = 4404;
/** Nudges to one socket at most this often: a busy gate moves many bookings, one refetch covers them (and the manage route allows 60 reads a minute per address). */
export const QUEUE_NUDGE_INTERVAL_MS = 5_000;

/** The manage token from the subprotocol, or null. */
export function manageTokenOf(request: FastifyRequest): string | null {
  const protocols = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  return protocols.find((p) => p.startsWith(MANAGE_PROTOCOL))?.slice(MANAGE_PROTOCOL.length) || null;
}

/** What the socket knows of its booking: enough to filter events, nothing it sends. */
export type FollowedBooking = { id: string; orgId: string; siteId: string; status: BookingStatus };

/** The booking behind a manage token, found by its hash as the manage routes do; null when unknown. */
export async function findFollowedBooking(ctx: AppContext, token: string): Promise<FollowedBooking | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await ctx.database.db
    .select({ id: bookings.id, orgId: bookings.orgId, siteId: bookings.siteId, status: bookings.status })
    .from(bookings)
    .where(eq(bookings.manageTokenHash, hashToken(token)));
  return row ? { ...row, status: row.status as BookingStatus } : null;
}

export const isWithdrawn = (booking: FollowedBooking) => WITHDRAWN_BOOKING_STATUSES.includes(booking.status);

type Subscribe = NonNullable<NonNullable<AppContext['realtime']>['subscribe']>;

/**
 * The event filter of one driver's socket, fed the organization's events in order. Its own
 * booking's events are passed on and the booking read again (it may have checked in, moved site,
 * been cancelled); another booking's event at its site becomes a nudge while it waits.
 */
export function followBooking(
  ctx: AppContext,
  subscribe: Subscribe,
  token: string,
  initial: FollowedBooking,
  send: (message: RealtimeServerMessage) => void,
  onWithdrawn: () => void,
  log: FastifyRequest['log'],
): () => void {
  let booking = initial;
  let pending = Promise.resolve();
  let lastNudgeAt = 0;
  let nudgeTimer: NodeJS.Timeout | null = null;
  let isStopped = false;

  const nudge = () => {
    if (nudgeTimer) return;
    const wait = lastNudgeAt + QUEUE_NUDGE_INTERVAL_MS - Date.now();
    const fire = () => {
      nudgeTimer = null;
      if (isStopped || booking.status !== 'checked_in') return;
      lastNudgeAt = Date.now();
      send({ type: 'queue' });
    };
    if (wait <= 0) fire();
    else nudgeTimer = setTimeout(fire, wait);
  };

  const handle = async (event: RealtimeEvent) => {
    if (event.id === booking.id) {
      send({ type: 'event', event });
      const fresh = await findFollowedBooking(ctx, token);
      if (isStopped) return;
      if (!fresh || isWithdrawn(fresh)) return onWithdrawn();
      booking = fresh;
      return;
    }
    if (event.entity === 'booking' && event.siteId === booking.siteId && booking.status === 'checked_in') nudge();
  };

  // The whole organization: a booking moved to another site of it is still followed.
  const unsubscribe = subscribe({ orgId: initial.orgId, siteId: null }, (event) => {
    pending = pending.then(() => handle(event)).catch((error: unknown) => log.warn({ err: error }, 'realtime booking follow failed'));
  });
  return () => {
    isStopped = true;
    if (nudgeTimer) clearTimeout(nudgeTimer);
    unsubscribe();
  };
}
