import type { AppContext } from '../../context';
import type { AuditActor } from '../../audit/write-audit';
import { checkIn, checkOut } from './gate-moves';

// The gate's moves on a booking, shared by the gate screens' routes and the plate reads (a typed
// or photographed plate, a site camera's webhook): check in at the gate and check out, with the
// gate's rules (the check-in window, one visit of a vehicle at a time, the site's own bookings).
// Rules: docs/decisions/011-gate-rules.md.

/** Who acts at the gate: a signed-in person of the site's organization, or a site camera (automatic check-in). */
export type GateActor = {
  orgId: string;
  siteId: string;
  /** A camera checks in as the lifecycle's `system` actor: it may check in, not check out. */
  role: 'org_admin' | 'dockmaster' | 'security' | 'camera';
  /** The person; null for a camera (the audit records the camera token in `details`). */
  auditActor: AuditActor;
  /** Extra audit details, e.g. { plate_read_id, camera_token_id, automatic: true }. */
  details?: Record<string, unknown>;
  ip?: string | null;
};

export type GateMoveResult = {
  bookingId: string;
  status: string;
  version: number;
  /** True when the booking was already in the target state (a second check-in is idempotent). */
  unchanged: boolean;
};

/**
 * Checks a booking of the actor's site in at the gate (approved → checked_in): within the check-in
 * window, the vehicle not on site under another booking; already checked in → unchanged.
 * Throws AppError 404 (not this site's), 409 (window, vehicle on site, stale version, status), 403.
 */
export async function checkInAtGate(ctx: AppContext, actor: GateActor, bookingId: string, expectedVersion?: number): Promise<GateMoveResult> {
  const { dwellMinutes: _dwell, ...result } = await checkIn(ctx, actor, bookingId, expectedVersion);
  return result;
}

/** Checks a booking of the actor's site out (in_progress or overstay → completed); the audit records the dwell time. */
export async function checkOutAtGate(ctx: AppContext, actor: GateActor, bookingId: string, expectedVersion?: number): Promise<GateMoveResult> {
  const { dwellMinutes: _dwell, ...result } = await checkOut(ctx, actor, bookingId, expectedVersion);
  return result;
}
