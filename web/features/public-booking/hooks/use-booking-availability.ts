import { useDebouncedValue } from '@mantine/hooks';
import { useMemo } from 'react';
import { MAX_DURATION_MIN, MIN_DURATION_MIN } from '../../../../domain/constants';
import { isSpecialAccessNeed, isVehicleType } from '../../../../domain/enums';
import { MAX_VEHICLE_HEIGHT_M, MAX_VEHICLE_LENGTH_M, normalizeDuration } from '../../../../domain/booking-request-limits';
import { type AvailabilityRequest, useAvailability } from '../api/get-availability';
import { useAvailabilityEffects } from './use-availability-effects';

export type AvailabilityCriteria = {
  orgId: string | null;
  /** The site the haulier chose (organizations that allow it); none: best fit over all sites. */
  siteId?: string | null;
  date: string | null;
  durationMin: number | string;
  vehicleHeightM: number | string;
  vehicleLengthM: number | string;
  vehicleType: string;
  specialAccessNeeds: string[];
};

/** Numeric inputs settle for this long before the grid is asked again. */
export const AVAILABILITY_DEBOUNCE_MS = 300;

function positiveNumber(value: number | string, max: number, allowZero: boolean): number | undefined {
  const n = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || n > max) return undefined;
  return n > 0 || (allowZero && n === 0) ? n : undefined;
}

/** The availability request for the current answers, or null until an organization and date are known. */
export function toAvailabilityRequest(c: AvailabilityCriteria): AvailabilityRequest | null {
  if (!c.orgId || !c.date) return null;
  const duration = Math.min(MAX_DURATION_MIN, Math.max(MIN_DURATION_MIN, normalizeDuration(c.durationMin)));
  const request: AvailabilityRequest = { orgId: c.orgId, date: c.date, durationMin: duration };
  if (c.siteId) request.siteId = c.siteId;
  const height = positiveNumber(c.vehicleHeightM, MAX_VEHICLE_HEIGHT_M, false);
  const length = positiveNumber(c.vehicleLengthM, MAX_VEHICLE_LENGTH_M, false);
  if (height !== undefined) request.vehicleHeightM = height;
  if (length !== undefined) request.vehicleLengthM = length;
  if (isVehicleType(c.vehicleType)) request.vehicleType = c.vehicleType;
  const needs = c.specialAccessNeeds.filter(isSpecialAccessNeed);
  if (needs.length > 0) request.specialAccessNeeds = needs.sort();
  return request;
}

/**
 * The slot grid for the booking form: refetched when the date, vehicle or duration change
 * (numbers debounced), a failure toasted once, and the chosen slot dropped when it is no longer free.
 */
export function useBookingAvailability(criteria: AvailabilityCriteria, selectedSlot: string | null, clearSlot: () => void) {
  const [durationMin] = useDebouncedValue(criteria.durationMin, AVAILABILITY_DEBOUNCE_MS);
  const [vehicleHeightM] = useDebouncedValue(criteria.vehicleHeightM, AVAILABILITY_DEBOUNCE_MS);
  const [vehicleLengthM] = useDebouncedValue(criteria.vehicleLengthM, AVAILABILITY_DEBOUNCE_MS);
  const needsKey = criteria.specialAccessNeeds.join(',');

  const request = useMemo(
    () =>
      toAvailabilityRequest({
        orgId: criteria.orgId,
        siteId: criteria.siteId,
        date: criteria.date,
        durationMin,
        vehicleHeightM,
        vehicleLengthM,
        vehicleType: criteria.vehicleType,
        specialAccessNeeds: needsKey ? needsKey.split(',') : [],
      }),
    [criteria.orgId, criteria.siteId, criteria.date, durationMin, vehicleHeightM, vehicleLengthM, criteria.vehicleType, needsKey],
  );

  const query = useAvailability(request);

  const clearedNotice = useAvailabilityEffects(query, selectedSlot, clearSlot);

  return { request, ...query, data: request ? query.data : undefined, clearedNotice };
}
