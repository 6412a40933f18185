import { z } from 'zod';
import { languageSchema } from './language-schema';

// Response shapes of the public booking API, shared by the server (which answers with them) and
// the web (which derives its types from them).

const hours = z.array(z.object({ open: z.string(), close: z.string() }));
export const bookingInfoSchema = z.object({
  organizations: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** The organization lets hauliers choose the site (else: the best-fit bay over all its sites). */
      hauliersChooseSite: z.boolean(),
      /** The language the portal opens in for this organization (its settings' portal default). */
      defaultLanguage: languageSchema,
      sites: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          address: z.string().nullable(),
          timeZone: z.string(),
          operatingHours: z.object({ mon: hours, tue: hours, wed: hours, thu: hours, fri: hours, sat: hours, sun: hours }),
          minAdvanceMin: z.number(),
          bookingHorizonDays: z.number(),
          bayCount: z.number(),
          maxClearanceM: z.number().nullable(),
          contactPhone: z.string().nullable(),
          contactEmail: z.string().nullable(),
        }),
      ),
    }),
  ),
});

export const submittedBookingSchema = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.string(),
  siteName: z.string(),
  bayName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  timeZone: z.string(),
  manageUrl: z.string().nullable(),
  /** The arrival code (domain/arrival-code.ts): shown typed and as a QR code for the gate. */
  arrivalCode: z.string(),
  documents: z.number(),
});

export type BookingInfo = z.infer<typeof bookingInfoSchema>;
export type PublicOrganizationWithSites = BookingInfo['organizations'][number];
export type PublicSite = PublicOrganizationWithSites['sites'][number];
export type SubmittedBooking = z.infer<typeof submittedBookingSchema>;

export const manageViewSchema = z.object({
  reference: z.string(),
  status: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  tenantName: z.string(),
  contactName: z.string().nullable(),
  tenantEmail: z.string(),
  siteName: z.string(),
  siteAddress: z.string().nullable(),
  bayName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  timeZone: z.string(),
  date: z.string(),
  slot: z.string(),
  durationMin: z.number(),
  bookingType: z.string(),
  vehicleType: z.string(),
  vehicleRegistration: z.string(),
  vehicleHeightM: z.number(),
  canCancel: z.boolean(),
  canReschedule: z.boolean(),
  /** The arrival code (domain/arrival-code.ts): shown typed and as a QR code for the gate. */
  arrivalCode: z.string(),
  /** The haulier's latest running-late report: the expected arrival (ISO), or null. */
  lateEta: z.string().nullable(),
  /**
   * The driver's live state on the booking's day (site-local) or while the vehicle is on site;
   * null otherwise. Only this booking's own facts: its place in the queue, never the others.
   */
  live: z
    .object({
      /** Its place (1 = next) among the site's vehicles waiting to be called, while checked in; else null. */
      position: z.number().int().positive().nullable(),
      /** The bay the vehicle is called to, once called (at the bay); else null. */
      calledToBay: z.string().nullable(),
      /** When it was called to the bay (ISO); null before. */
      calledAt: z.string().nullable(),
      /** When it checked in at the gate (ISO); null before. */
      checkedInAt: z.string().nullable(),
    })
    .nullable(),
});
export type ManageView = z.infer<typeof manageViewSchema>;
