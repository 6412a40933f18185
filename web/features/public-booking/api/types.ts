import type { AvailabilityResponse } from '../../../../domain/availability-query';
import type { OrganizationOption } from '../../../../domain/contract/public.contract';
import type { BookingInfo, ManageView, PublicSite, SubmittedBooking } from '../../../../domain/public-booking';

// Response shapes of the public booking API: derived from the schemas the server answers with
// (domain/public-booking.ts, domain/availability-query.ts), never copied by hand.

export type { BookingInfo, PublicSite };
export type PublicOrganization = OrganizationOption;
export type Availability = AvailabilityResponse;
export type AvailabilitySlot = Availability['slots'][number];
export type CreatedBooking = SubmittedBooking;
export type ManagedBooking = ManageView;
