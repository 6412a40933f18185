import type { Database } from '../../db/client';
import { BOOK_CHANNEL_SQL, BOOK_SLOT_SQL, SLOT_FULL_SQL } from './book-slot-sql';
import { pgCode } from './booking-errors';
import { runLocked } from './load-lock';
import type { OrgRules } from './org-rules';
import { run } from './prepared-statement';
import type { SlotWindow } from './slot-windows';

// Booking one slot in one statement. The portal's hot path: the site rules (time zone, hours,
// interval, advance, horizon) come from a per-organization copy in memory, checked against the
// organization's config_version inside the statement; the statement then picks the best-fit free
// compatible bay (clearance, then natural name order), takes a narrow advisory lock (that bay, that
// day) so concurrent claimants queue instead of deadlocking inside the constraint check, inserts the
// booking, its audit row and its mail-outbox rows, and returns the bay it took — one round trip,
// one implicit transaction. The exclusion constraints stay the final guard: a concurrent winner
// makes the insert fail with 23P01 and the statement is simply run again with a fresh snapshot.
// Anything this path cannot decide (no window, nothing free, stale rules) goes to the full path,
// which has the precise messages.
//
// The statement also links the request to the organization's tenant (docs/tenant-linking.md:
// e-mail domain, then contact e-mail, then company name) and applies that tenant's policy: only
// its allowed sites are tried, and the booking is approved at once when the tenant or the
// organization auto-approves. A blocked tenant, or one with a daily limit (counted under a lock
// in the full path), gets no row here: the full path refuses or books it.
//
// The pieces: org-rules.ts (the rules copy), slot-windows.ts (the slot's instants), book-slot-sql.ts
// (the statement), prepared-statement.ts (running it), load-lock.ts (a channel's load).

export type Vehicle = { heightM: number; lengthM: number | null; needs: readonly string[] };

export type FastBookingInput = {
  rules: OrgRules;
  windows: SlotWindow[];
  vehicle: Vehicle;
  /** Every column of the booking but site, bay and times, as JSON (jsonb_populate_record). */
  record: Record<string, unknown>;
  audit: { details: Record<string, unknown>; ip: string | null; at: Date };
  /**
   * Mail queued with the booking: [kind, recipients, options]. `onlyIf` queues it only when the
   * booking gets that status ('pending' or 'approved'); `payload` is merged into mailPayload.
   */
  mail: [kind: string, recipients: string[], options?: { onlyIf?: 'pending' | 'approved'; payload?: Record<string, unknown> }][];
  mailPayload: Record<string, unknown>;
  /**
   * The tenant-link keys of the request (domain/org-tenants.ts linkKeysOf): e-mail and domain
   * lower-case, name trimmed. Without them the request links to no tenant.
   */
  link?: { email: string; domain: string; name: string };
  /** Booked for a channel (the SSC API) instead of a portal request: see FastChannel. */
  channel?: FastChannel;
};

/**
 * A channel's booking in one statement (BOOK_CHANNEL_SQL): the tenant is fixed (its policy read in
 * the statement), the audit row names the channel's actor, the channel's own row is written with
 * the booking, and nothing is booked when the idempotency key was used or the load already has a
 * live booking at the site (the full path answers those). `link` is not used.
 */
export type FastChannel = {
  tenantId: string;
  actor: { id: string; email: string | null; role: string | null; impersonatorId: string | null; impersonatorEmail: string | null };
  idempotencyKey: string | null;
  /**
   * The load: its reference (the booking's TSR number), when given its stop, and the advisory lock
   * (loadLockKey) every booking of that load at the site takes first, so two concurrent requests
   * for one load cannot both find it unbooked.
   */
  load: { reference: string; stopSequenceNumber: number | null; lockKey: string };
  /** The ssc_appointments row, snake_case, every column but booking_id and org_id. */
  sscAppointment: Record<string, unknown>;
};

/** status is 'pending', or 'approved' when the tenant's or the organization's policy approves at once. */
export type FastBooking = {
  id: string;
  siteId: string;
  bayId: string;
  bayName: string;
  startTime: Date;
  endTime: Date;
  status: string;
  tenantId: string | null;
};

type BookedRow = {
  id: string;
  site_id: string;
  bay_id: string;
  bay_name: string;
  start_time: Date | string;
  end_time: Date | string;
  status: string;
  tenant_id: string | null;
  /** The portal's statement: nothing booked because the slot is full (book-slot-sql.ts PORTAL_RESULT). */
  full?: boolean;
};

/**
 * Books the slot on the best-fit free bay in one statement, retrying when a concurrent booking
 * won the bay. Answers 'full' when the portal's statement is sure every compatible bay is taken
 * (the caller refuses with 'No Available Bay' at once), null when nothing was booked for a reason
 * it cannot name (a stale rules copy, a tenant with a policy of its own, a closed site):
 * the caller then takes the full path. Errors other than a lost race (the vehicle already booked,
 * a repeated idempotency key) are thrown to the caller.
 */
export async function bookSlotFast(database: Database, input: FastBookingInput): Promise<FastBooking | 'full' | null> {
  const { rules, windows, vehicle, channel } = input;
  if (windows.length === 0) return null;
  const common = [
    rules.orgId,
    rules.configVersion,
    windows.map((w) => w.siteId),
    windows.map((w) => w.start.toISOString()),
    windows.map((w) => w.end.toISOString()),
    vehicle.heightM,
    vehicle.lengthM,
    [...vehicle.needs],
    JSON.stringify(input.record),
    JSON.stringify(input.audit.details),
    input.audit.ip,
    input.audit.at.toISOString(),
    JSON.stringify(input.mail.map(([kind, recipients, options]) => ({ kind, recipients, only_if: options?.onlyIf ?? null, payload: options?.payload ?? null }))),
    JSON.stringify(input.mailPayload),
  ];
  const values = channel
    ? [
        ...common,
        channel.tenantId,
        JSON.stringify({
          id: channel.actor.id,
          email: channel.actor.email,
          role: channel.actor.role,
          impersonator_id: channel.actor.impersonatorId,
          impersonator_email: channel.actor.impersonatorEmail,
        }),
        channel.load.reference,
        channel.load.stopSequenceNumber,
        channel.idempotencyKey,
        JSON.stringify(channel.sscAppointment),
      ]
    : [...common, input.link?.domain ?? null, input.link?.email ?? null, input.link?.name ?? null];
  const [name, text] = channel ? ['baywise_book_channel_slot_v4', BOOK_CHANNEL_SQL] : ['baywise_book_slot_v9', BOOK_SLOT_SQL];
  for (let attempt = 0; attempt < 12; attempt++) {
    try {
      const [row] = channel ? await runLocked<BookedRow>(database, channel.load.lockKey, name, text, values) : await run<BookedRow>(database, name, text, values);
      if (!row) return null;
      if (row.full) return 'full';
      return {
        id: row.id,
        siteId: row.site_id,
        bayId: row.bay_id,
        bayName: row.bay_name,
        startTime: new Date(row.start_time),
        endTime: new Date(row.end_time),
        status: row.status,
        tenantId: row.tenant_id,
      };
    } catch (error) {
      const code = pgCode(error);
      const constraint = (error as { constraint?: string }).constraint;
      // Lost the bay to a concurrent booking (or a rare deadlock between two claimants): again,
      // with a fresh snapshot that sees the winner.
      if ((code === '23P01' && constraint !== 'bookings_vehicle_no_overlap') || code === '40P01') continue;
      throw error;
    }
  }
  return null;
}

// A storm on a full slot (issue 25): once the booking statement has answered 'full' for a slot,
// the next requests for it first ask the read-only check (SLOT_FULL_SQL), which needs no booking
// record, token, mail or lock, and refuse at once when it still says full. The hint below only
// chooses which statement to run: the answer always comes from the database at that moment, so a
// slot freed by a cancellation, a decline, a move, a blackout removed or a bay added — in this
// process or any other, directly or through a pooler — is bookable at once (the check finds the
// free bay, the hint is dropped, the booking statement runs). docs/decisions/048.

/** Per database: slots lately found full (key → when the hint lapses, performance.now() ms). */
const fullHints = new WeakMap<Database, Map<string, number>>();
/** A hint lasts this long: past it, the booking statement runs first again. */
const FULL_HINT_MS = 5_000;
/** At most this many hints per database (the oldest are dropped first). */
const FULL_HINT_LIMIT = 2_000;

export type SlotQuestion = Pick<FastBookingInput, 'rules' | 'windows' | 'vehicle' | 'link'>;

function hintKey({ rules, windows, vehicle }: SlotQuestion): string {
  const slot = windows.map((w) => `${w.siteId}@${w.start.toISOString()}-${w.end.toISOString()}`).join(',');
  return `${rules.orgId}|${rules.configVersion}|${slot}|${vehicle.heightM}|${vehicle.lengthM ?? ''}|${[...vehicle.needs].sort().join('+')}`;
}

/** Whether the booking statement lately answered 'full' for this slot and vehicle (then ask slotIsFull first). */
export function lateFoundFull(database: Database, question: SlotQuestion): boolean {
  const hints = fullHints.get(database);
  if (!hints) return false;
  const key = hintKey(question);
  const until = hints.get(key);
  if (until === undefined) return false;
  if (until > performance.now()) return true;
  hints.delete(key);
  return false;
}

/** Notes the booking statement's 'full' answer (or forgets it when `full` is false). */
export function noteFull(database: Database, question: SlotQuestion, full: boolean): void {
  let hints = fullHints.get(database);
  if (!full) {
    hints?.delete(hintKey(question));
    return;
  }
  if (!hints) fullHints.set(database, (hints = new Map()));
  const key = hintKey(question);
  hints.delete(key); // re-inserted last: the Map's order is the age order
  hints.set(key, performance.now() + FULL_HINT_MS);
  while (hints.size > FULL_HINT_LIMIT) hints.delete(hints.keys().next().value!);
}

/**
 * The read-only check: true exactly when the portal's booking statement would answer 'full' now
 * (book-slot-sql.ts SLOT_FULL_SQL), false otherwise (a bay free, or anything the full path must
 * answer). No lock, no write.
 */
export async function slotIsFull(database: Database, question: SlotQuestion): Promise<boolean> {
  const { rules, windows, vehicle, link } = question;
  if (windows.length === 0) return false;
  const rows = await run<{ full: boolean }>(database, 'baywise_slot_full_v1', SLOT_FULL_SQL, [
    rules.orgId,
    rules.configVersion,
    windows.map((w) => w.siteId),
    windows.map((w) => w.start.toISOString()),
    windows.map((w) => w.end.toISOString()),
    vehicle.heightM,
    vehicle.lengthM,
    [...vehicle.needs],
    link?.domain ?? null,
    link?.email ?? null,
    link?.name ?? null,
  ]);
  return rows[0]?.full === true;
}
