import { addDays } from '../../../domain/day-notice';
import { todayIn } from '../../../domain/slot-grid';
import { SSC_DEFAULT_RANGE_DAYS, SSC_LOADING_DURATION_MIN, SSC_MAX_RANGE_DAYS, availableAppointmentId, minutesToDuration, sscFetchAvailableRequestSchema, type SscLoadingType } from '../../../domain/ssc';
import type { AppContext } from '../../context';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { requireScope } from '../api-keys/api-keys.service';
import { getDayAvailability } from '../availability/availability.service';
import * as bookingRecords from '../bookings/booking-records';
import { appointmentTypeOf, audit, equipmentOf, findOne, isAutoApproved, keyTenant, locationOf, parse, requireCompatibleBay, siteFor, zoned, type Vehicle } from './ssc-common';
import { capabilityNotSupported, invalidArgument } from './ssc-errors';
import * as repo from './ssc.repo';

// fetch-available-appointments: exactly the portal's bookable slots at the location for the vehicle
// and duration (docs/ssc-mapping.md).

export async function fetchAvailableAppointments(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'availability:read');
  const request = parse(sscFetchAvailableRequestSchema, body);
  const tenant = await keyTenant(ctx, principal);
  const identifiers = request.identifiers;
  if ('requestIdentifier' in identifiers) {
    throw capabilityNotSupported('Baywise answers synchronously: there are no pending requests to poll');
  }
  let site: repo.SscSite;
  let vehicle: Vehicle;
  let durationMin: number;
  let loadingType: SscLoadingType;
  let excludeBookingId: string | undefined;
  if ('appointmentId' in identifiers) {
    const appointment = await findOne(ctx, principal, identifiers);
    site = (await repo.findSite(ctx.database.db, principal.orgId, appointment.siteId)) ?? (await siteFor(ctx, principal, tenant, appointment.siteId));
    const view = (await bookingRecords.findBookingView(ctx.database.db, { orgId: principal.orgId, id: appointment.bookingId }))!;
    vehicle = {
      equipmentType: (appointment.equipmentType ?? 'VAN') as Vehicle['equipmentType'],
      vehicleType: view.booking.vehicleType as Vehicle['vehicleType'],
      heightM: view.booking.vehicleHeightM,
      lengthM: view.booking.vehicleLengthM,
      needs: (view.booking.specialAccessNeeds ?? []) as Vehicle['needs'],
    };
    durationMin = appointment.expectedDurationMin;
    loadingType = (appointment.loadingType ?? 'LIVE') as SscLoadingType;
    excludeBookingId = appointment.bookingId;
  } else {
    site = await siteFor(ctx, principal, tenant, identifiers.locationId);
    vehicle = equipmentOf(request.equipment);
    loadingType = 'LIVE';
    durationMin = SSC_LOADING_DURATION_MIN[loadingType];
  }
  const now = ctx.clock.now();
  const today = todayIn(site.timeZone, now);
  const restriction = request.dateRestrictions;
  const [from, to] = !restriction
    ? [today, addDays(today, SSC_DEFAULT_RANGE_DAYS - 1)]
    : 'exactDate' in restriction
      ? [restriction.exactDate, restriction.exactDate]
      : [restriction.startDate, restriction.endDate];
  if (to < from) throw invalidArgument('The date range ends before it starts', [{ key: 'dateRestrictions.endDate', detail: 'endDate must not be before startDate' }]);
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (days > SSC_MAX_RANGE_DAYS) {
    throw invalidArgument('The date range is too long', [{ key: 'dateRestrictions', detail: `Ask for at most ${SSC_MAX_RANGE_DAYS} days at a time` }]);
  }
  await requireCompatibleBay(ctx, site, vehicle);
  const appointmentType = appointmentTypeOf(await isAutoApproved(ctx.database.db, principal.orgId, tenant));
  const appointments = [];
  // Past days offer nothing; the portal's grid decides every other rule (hours, advance, horizon, blackouts, free bays).
  for (let date = from < today ? today : from; date <= to; date = addDays(date, 1)) {
    const day = await getDayAvailability(
      ctx.database.db,
      { orgId: principal.orgId, date, durationMin, vehicleHeightM: vehicle.heightM, vehicleLengthM: vehicle.lengthM, specialAccessNeeds: vehicle.needs },
      now,
      { excludeBookingId },
    );
    for (const slot of day.slots) {
      const here = slot.candidates.find((candidate) => candidate.siteId === site.id);
      if (!slot.bookable || !here) continue;
      appointments.push({
        id: availableAppointmentId({ siteId: site.id, date, slot: slot.time, durationMin }),
        appointmentType,
        arrivalWindow: { startDateTime: zoned(here.start, site.timeZone), duration: minutesToDuration(durationMin) },
        loadingType,
      });
    }
  }
  await audit(ctx, principal, 'ssc.availability_fetched', { location_id: site.id, from, to, offered: appointments.length }, ip, { siteId: site.id });
  return { status: 'SUCCESS' as const, appointments, ...locationOf(site) };
}
