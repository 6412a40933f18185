import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { BookingRequest } from '../../../domain/booking-request';
import type { GateMoveResponse, walkInSchema } from '../../../domain/gate';
import { localDateOf, localTimeOf } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { hashToken } from '../../auth/tokens';
import { conflict } from '../../plugins/errors';
import { assertWithinPlanLimit } from '../billing/plan-limits';
import { bookingColumnsOf, createBookingInTx } from '../bookings/create-booking';
import { afterCommit } from '../bookings/lifecycle.service';
import { manageTokenFor } from '../bookings/manage-token';
import { findLinkedTenant } from '../tenants/tenant-link';
import type { GateActor } from './gate-actions';
import { refuseVehicleOnSite, siteStopped } from './gate-rules';
import { gateBookingById } from './gate-view';
import * as repo from './gate.repo';

// A walk-in goes through the one creation function (createBookingInTx) like every other booking:
// claimed bay, audit, webhooks; created checked in, so no mail.

const MINUTE_MS = 60_000;

/**
 * A vehicle at the gate without a booking: booked now (to the minute) for its expected duration on
 * a compatible bay free now, checked in at once, source 'gate'. `alsoInTx` runs in the same
 * transaction once the booking exists (a kiosk's walk-in request is marked accepted with it).
 */
export async function walkIn(
  ctx: AppContext,
  actor: GateActor,
  input: z.output<typeof walkInSchema>,
  alsoInTx?: (tx: Tx, bookingId: string) => Promise<void>,
): Promise<GateMoveResponse> {
  const now = ctx.clock.now();
  const start = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const end = new Date(start.getTime() + input.expectedDurationMin * MINUTE_MS);
  const id = randomUUID();
  const view = await ctx.database.db.transaction(async (tx) => {
    const site = (await repo.findSite(tx, actor))!;
    if (site.emergencyAt) throw siteStopped(site.name);
    await refuseVehicleOnSite(tx, actor.orgId, input.vehicleRegistration, null);
    let free = await repo.freeBaysForWalkIn(tx, site.id, { heightM: input.vehicleHeightM, lengthM: input.vehicleLengthM ?? null, needs: input.specialAccessNeeds ?? [] }, start, end);
    if (input.bayId) free = free.filter((b) => b.id === input.bayId);
    if (free.length === 0) {
      throw conflict(
        'no_free_bay',
        input.bayId
          ? 'That bay is not free now for this vehicle. Choose another bay, or let the vehicle wait.'
          : `No bay at ${site.name} that can take this vehicle is free for ${input.expectedDurationMin} minutes from now. Let the vehicle wait or book it later.`,
      );
    }
    await assertWithinPlanLimit(tx, actor.orgId, 'bookings', { now });
    const tenant = await findLinkedTenant(tx, actor.orgId, input.tenantEmail, input.tenantName);
    const request = { ...input, orgId: actor.orgId, date: localDateOf(start, site.timeZone), slot: localTimeOf(start, site.timeZone), idempotencyKey: undefined } as BookingRequest;
    const { view: created } = await createBookingInTx(tx, now, {
      candidates: free.map((b) => ({ bayId: b.id, bayName: b.name, siteId: site.id, siteName: site.name, start, end })),
      booking: {
        ...bookingColumnsOf(request),
        id,
        orgId: actor.orgId,
        tenantId: tenant?.id ?? null,
        status: 'checked_in',
        approvedAt: now,
        checkedInAt: now,
        source: 'gate',
        manageTokenHash: hashToken(manageTokenFor(ctx.authSecret, id)),
        createdAt: now,
        updatedAt: now,
      },
      vehicleRegistration: input.vehicleRegistration,
      audit: {
        actor: actor.auditActor,
        details: { vehicle_registration: input.vehicleRegistration, source: 'gate', walk_in: true, bay_chosen: !!input.bayId, actor: actor.role },
        ip: actor.ip ?? null,
      },
      // The driver is at the gate: no mail. A walk-in is created checked in: both events.
      mail: { notifyAdmins: false, documents: 0 },
      webhookTypes: ['booking.created', 'gate.check_in'],
    });
    if (alsoInTx) await alsoInTx(tx, id);
    return created;
  });
  afterCommit(ctx, view, 'created');
  return { booking: await gateBookingById(ctx, actor, id), unchanged: false, dwellMinutes: null };
}
