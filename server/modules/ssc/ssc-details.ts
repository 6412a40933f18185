import { appointmentStatusOf, confirmationNumberOf, sscDetailsRequestSchema } from '../../../domain/ssc';
import type { AppContext } from '../../context';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { requireScope } from '../api-keys/api-keys.service';
import { appointmentOf, audit, findOne, locationOf, parse } from './ssc-common';
import * as repo from './ssc.repo';

// fetch-appointment-details: the appointment the identifiers name, audited as viewed (docs/ssc-mapping.md).

export async function fetchAppointmentDetails(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'availability:read');
  const request = parse(sscDetailsRequestSchema, body);
  const appointment = await findOne(ctx, principal, request.identifiers);
  const site = (await repo.findSite(ctx.database.db, principal.orgId, appointment.siteId)) ?? null;
  const timeZone = site?.timeZone ?? 'UTC';
  await audit(ctx, principal, 'ssc.appointment_viewed', { booking_id: appointment.bookingId }, ip, { resourceType: 'booking', resourceId: appointment.bookingId, siteId: appointment.siteId });
  return {
    status: 'SUCCESS' as const,
    appointment: appointmentOf(appointment, timeZone),
    appointmentConfirmationNumber: confirmationNumberOf(appointment.bookingId),
    // A reschedule under the site's review is PENDING (the standard's status for it); the appointment answered is still the confirmed one.
    appointmentStatus: appointment.requestedStartTime && appointment.status === 'approved' ? ('PENDING' as const) : appointmentStatusOf(appointment.status),
    ...(appointment.lastReasonCode ? { mostRecentReasonCode: appointment.lastReasonCode } : {}),
    ...(appointment.lastComment ?? appointment.statusReason ? { mostRecentComment: (appointment.lastComment ?? appointment.statusReason)! } : {}),
    ...(site ? locationOf(site) : { locationId: appointment.siteId }),
  };
}
