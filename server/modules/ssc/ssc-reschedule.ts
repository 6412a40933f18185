import { appointmentStatusOf, confirmationNumberOf, sscRescheduleRequestSchema, type SscLoadingType } from '../../../domain/ssc';
import { NO_AVAILABLE_BAY } from '../../../domain/booking-messages';
import type { AppContext } from '../../context';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { requireScope } from '../api-keys/api-keys.service';
import { candidatesToMove } from '../bookings/booking-candidates';
import * as bookingRecords from '../bookings/booking-records';
import { afterCommit } from '../bookings/lifecycle.service';
import { moveBookingInTx } from '../bookings/move-booking';
import { writeAudit } from '../../audit/write-audit';
import { appointmentOf, findOne, isAutoApproved, keyDetails, keyTenant, locationOf, parse, requireChangeable, requirePlainTexts, slotAt, targetOf } from './ssc-common';
import { appointmentError, invalidArgument } from './ssc-errors';
import * as repo from './ssc.repo';

// reschedule-appointment: same location only, within the organization's cutoff (docs/ssc-mapping.md).
// A pending appointment moves at once (the policy decides its status again); a confirmed one moves
// at once only when the policy approves, else the requested slot waits for the site
// (ssc-reschedule-requests.ts) and the carrier is answered PENDING.

export async function rescheduleAppointment(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'appointments:reschedule');
  const request = parse(sscRescheduleRequestSchema, body);
  requirePlainTexts({ reasonCode: request.reasonCode, comment: request.comment });
  const tenant = await keyTenant(ctx, principal);
  const appointment = await findOne(ctx, principal, request.identifiers);
  const site = (await repo.findSite(ctx.database.db, principal.orgId, appointment.siteId))!;
  const target = targetOf(request.preferredAppointment);
  if (target.siteId && target.siteId !== site.id) {
    throw invalidArgument('An appointment stays at its location', [{ key: 'preferredAppointment.id', detail: 'The available appointment is at another location: cancel and schedule there instead' }]);
  }
  const loadingType = target.loadingType ?? ((appointment.loadingType ?? 'LIVE') as SscLoadingType);
  const durationMin = target.durationMin ?? appointment.expectedDurationMin;
  const { date, slot } = slotAt(target, site);
  const now = ctx.clock.now();
  const outcome = await ctx.database.db.transaction(async (tx) => {
    const view = (await bookingRecords.findBookingView(tx, { orgId: principal.orgId, id: appointment.bookingId }, true))!;
    const b = view.booking;
    await requireChangeable(ctx, tx, b, b.orgId, site.name, 'moved');
    const candidates = (await candidatesToMove(tx, now, { ...b, expectedDurationMin: durationMin }, { date, slot })).filter((c) => c.siteId === site.id);
    if (candidates.length === 0) throw appointmentError(NO_AVAILABLE_BAY);
    const autoApproved = await isAutoApproved(tx, b.orgId, tenant);
    const sscRow = {
      bookingId: b.id,
      orgId: b.orgId,
      tenantId: tenant.id,
      apiKeyId: principal.keyId,
      primaryReferenceNumber: b.tsrNumber,
      equipmentType: appointment.equipmentType ?? 'VAN',
      lastReasonCode: request.reasonCode ?? null,
      lastComment: request.comment ?? null,
      updatedAt: now,
    };
    if (b.status === 'approved' && !autoApproved) {
      // The standard's practice: a confirmed appointment keeps its slot until the site accepts or
      // refuses the new one (an org admin, in the booking's drawer); the carrier is answered PENDING
      // and hears the outcome through appointment-changed.
      const requested = candidates[0]!;
      await repo.upsertSscAppointment(tx, {
        ...sscRow,
        loadingType: appointment.loadingType ?? 'LIVE',
        requestedStartTime: requested.start,
        requestedDurationMin: durationMin,
        requestedLoadingType: loadingType,
        requestedAt: now,
      });
      await writeAudit(tx, {
        actor: principal.auditActor,
        action: 'ssc.reschedule_requested',
        resourceType: 'booking',
        resourceId: b.id,
        orgId: b.orgId,
        siteId: b.siteId,
        details: {
          ...keyDetails(principal),
          tsr_number: b.tsrNumber,
          start: b.startTime.toISOString(),
          requested_start: requested.start.toISOString(),
          duration_min: durationMin,
          reason_code: request.reasonCode ?? null,
          comment: request.comment ?? null,
        },
        ip,
      });
      return { id: b.id, pending: true };
    }
    // The lifecycle's move for a carrier: the tenant's policy decides again (approved at once, or reviewed by the site).
    await moveBookingInTx(tx, now, {
      current: view,
      candidates,
      mover: 'carrier',
      policyApproves: autoApproved,
      expectedDurationMin: durationMin,
      // The move settles any request still awaiting the site (the row carries none).
      afterMove: (tx2) => repo.upsertSscAppointment(tx2, { ...sscRow, loadingType }).then(() => undefined),
      audit: {
        actor: principal.auditActor,
        details: {
          ...keyDetails(principal),
          from: b.startTime.toISOString(),
          duration_min: durationMin,
          reason_code: request.reasonCode ?? null,
          comment: request.comment ?? null,
        },
        ip,
      },
      mailReason: request.comment ?? null,
    });
    return { id: b.id, pending: false };
  });
  const moved = outcome.id;
  const view = (await bookingRecords.findBookingView(ctx.database.db, { orgId: principal.orgId, id: moved }))!;
  // The live screens show the request (the booking drawer), or the move.
  afterCommit(ctx, view, outcome.pending ? 'reschedule_requested' : 'rescheduled');
  if (outcome.pending) return { status: 'PENDING' as const };
  const row = (await repo.findAppointments(ctx.database.db, { orgId: principal.orgId, tenantId: principal.tenantId }, { appointmentId: moved }))[0]!;
  return {
    status: 'SUCCESS' as const,
    appointment: appointmentOf(row, site.timeZone),
    appointmentStatus: appointmentStatusOf(row.status),
    appointmentConfirmationNumber: confirmationNumberOf(row.bookingId),
    ...locationOf(site),
  };
}
