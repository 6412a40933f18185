import { appointmentStatusOf, confirmationNumberOf, sscRescheduleRequestSchema, type SscLoadingType } from '../../../domain/ssc';
import { NO_AVAILABLE_BAY } from '../../../domain/booking-messages';
import type { AppContext } from '../../context';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { requireScope } from '../api-keys/api-keys.service';
import { candidatesToMove } from '../bookings/allocate-bay';
import * as bookingRecords from '../bookings/booking-records';
import { afterCommit } from '../bookings/lifecycle.service';
import { moveBookingInTx } from '../bookings/move-booking';
import { appointmentOf, findOne, isAutoApproved, keyDetails, keyTenant, locationOf, parse, requireChangeable, requirePlainTexts, slotAt, targetOf } from './ssc-common';
import { appointmentError, invalidArgument } from './ssc-errors';
import * as repo from './ssc.repo';

// reschedule-appointment: same location only, within the organization's cutoff (docs/ssc-mapping.md).

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
  const moved = await ctx.database.db.transaction(async (tx) => {
    const view = (await bookingRecords.findBookingView(tx, { orgId: principal.orgId, id: appointment.bookingId }, true))!;
    const b = view.booking;
    await requireChangeable(ctx, tx, b, b.orgId, site.name, 'moved');
    const candidates = (await candidatesToMove(tx, now, { ...b, expectedDurationMin: durationMin }, { date, slot })).filter((c) => c.siteId === site.id);
    if (candidates.length === 0) throw appointmentError(NO_AVAILABLE_BAY);
    const autoApproved = await isAutoApproved(tx, b.orgId, tenant);
    // The lifecycle's move for a carrier: the tenant's policy decides again (approved at once, or reviewed by the site).
    await moveBookingInTx(tx, now, {
      current: view,
      candidates,
      mover: 'carrier',
      policyApproves: autoApproved,
      expectedDurationMin: durationMin,
      afterMove: (tx2) =>
        repo.upsertSscAppointment(tx2, {
          bookingId: b.id,
          orgId: b.orgId,
          tenantId: tenant.id,
          apiKeyId: principal.keyId,
          primaryReferenceNumber: b.tsrNumber,
          loadingType,
          equipmentType: appointment.equipmentType ?? 'VAN',
          lastReasonCode: request.reasonCode ?? null,
          lastComment: request.comment ?? null,
          updatedAt: now,
        }).then(() => undefined),
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
    return b.id;
  });
  const view = (await bookingRecords.findBookingView(ctx.database.db, { orgId: principal.orgId, id: moved }))!;
  afterCommit(ctx, view, 'rescheduled');
  const row = (await repo.findAppointments(ctx.database.db, { orgId: principal.orgId, tenantId: principal.tenantId }, { appointmentId: moved }))[0]!;
  return {
    status: 'SUCCESS' as const,
    appointment: appointmentOf(row, site.timeZone),
    appointmentStatus: appointmentStatusOf(row.status),
    appointmentConfirmationNumber: confirmationNumberOf(row.bookingId),
    ...locationOf(site),
  };
}
