import { sscCancelRequestSchema } from '../../../domain/ssc';
import type { AppContext } from '../../context';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { requireScope } from '../api-keys/api-keys.service';
import { queueBookingChangedMail } from '../bookings/booking-mail-queue';
import * as bookingRecords from '../bookings/booking-records';
import { afterCommit, applyTransitionInTx } from '../bookings/lifecycle.service';
import { findOne, keyDetails, keyTenant, parse, requireChangeable, requirePlainTexts } from './ssc-common';
import * as repo from './ssc.repo';

// cancel-appointment: as the haulier's manage link cancels, within the organization's cutoff (docs/ssc-mapping.md).

export async function cancelAppointment(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'appointments:cancel');
  const request = parse(sscCancelRequestSchema, body);
  requirePlainTexts({ reasonCode: request.reasonCode, comment: request.comment });
  const tenant = await keyTenant(ctx, principal);
  const appointment = await findOne(ctx, principal, request.identifiers);
  const site = (await repo.findSite(ctx.database.db, principal.orgId, appointment.siteId)) ?? { name: 'the site' };
  const now = ctx.clock.now();
  const reason = [request.reasonCode, request.comment].filter((part) => part?.trim()).join(': ') || 'Cancelled by the carrier (SSC API)';
  const result = await ctx.database.db.transaction(async (tx) => {
    const view = (await bookingRecords.findBookingView(tx, { orgId: principal.orgId, id: appointment.bookingId }, true))!;
    await requireChangeable(ctx, tx, view.booking, view.booking.orgId, site.name, 'cancelled');
    const moved = await applyTransitionInTx(
      ctx,
      tx,
      { bookingId: view.booking.id, orgId: principal.orgId, to: 'cancelled', reason: reason.slice(0, 500), details: keyDetails(principal) },
      { kind: 'haulier', user: principal.auditActor, ip },
    );
    await repo.upsertSscAppointment(tx, {
      bookingId: view.booking.id,
      orgId: view.booking.orgId,
      tenantId: tenant.id,
      apiKeyId: principal.keyId,
      primaryReferenceNumber: view.booking.tsrNumber,
      loadingType: appointment.loadingType ?? 'LIVE',
      equipmentType: appointment.equipmentType ?? 'VAN',
      lastReasonCode: request.reasonCode ?? null,
      lastComment: request.comment ?? null,
      updatedAt: now,
    });
    await queueBookingChangedMail(tx, now, view.booking, 'cancelled');
    return moved.view;
  });
  afterCommit(ctx, result, 'cancelled');
  return { status: 'SUCCESS' as const };
}
