import type { AvailabilityResponse } from '../../../../domain/availability-query';
import type { OperatingHours } from '../../../../domain/constants';

// Response shapes of the public booking API (server/modules/public-booking).

export type PublicOrganization = { id: string; name: string };

export type PublicSite = {
  id: string;
  name: string;
  address: string | null;
  timeZone: string;
  operatingHours: OperatingHours;
  bayCount: number;
  maxClearanceM: number | null;
  contactPhone: string | null;
  contactEmail: string | null;
  /** How far ahead a slot must be booked at this site, in minutes. */
  minAdvanceMin?: number;
  /** How many days ahead the site takes bookings. */
  bookingHorizonDays?: number;
};

export type BookingInfo = {
  organizations: Array<PublicOrganization & { sites: PublicSite[] }>;
};

/** The day's grid, as the shared response schema defines it (domain/availability-query.ts). */
export type Availability = AvailabilityResponse;
export type AvailabilitySlot = Availability['slots'][number];

export type CreatedBooking = {
  id: string;
  reference: string;
  status: string;
  siteName: string;
  bayName: string;
  startTime: string;
  endTime: string;
  timeZone: string;
  /** The private manage link also sent by e-mail (absent when the request was a replay). */
  manageUrl?: string | null;
  /** How many documents were stored with the booking. */
  documents?: number;
};

export type ManagedBooking = {
  reference: string;
  status: string;
  tenantName: string;
  contactName: string | null;
  siteName: string;
  bayName: string;
  startTime: string;
  endTime: string;
  timeZone: string;
  durationMin: number;
  vehicleType: string | null;
  vehicleRegistration: string | null;
  canCancel: boolean;
  canReschedule: boolean;
  orgId: string;
};
