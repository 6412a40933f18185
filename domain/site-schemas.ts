import { z } from 'zod';
import { WEEKDAYS } from './enums';

// Sites as the API returns them (spec §3 "sites: … all columns are read").

const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'Use a time like 06:00');

export const dayHoursSchema = z.object({ open: timeOfDay, close: timeOfDay }).nullable();

/** Opening hours per weekday in the site's own time zone; null: closed that day. */
export const operatingHoursSchema = z.partialRecord(z.enum(WEEKDAYS), dayHoursSchema);

export const emergencyContactSchema = z.object({ label: z.string(), extension: z.string() });

export const siteSchema = z.object({
  id: z.string(),
  name: z.string(),
  orgId: z.string(),
  active: z.boolean(),
  timeZone: z.string(),
  address: z.string().nullable(),
  operatingHours: operatingHoursSchema,
  slotIntervalMin: z.number(),
  minAdvanceMin: z.number(),
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  emergencyContacts: z.array(emergencyContactSchema),
});
export type SiteDto = z.infer<typeof siteSchema>;

/** An active site of an active organization, as the dockmaster login lists it. */
export const publicSiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  emergencyContacts: z.array(emergencyContactSchema),
});
export type PublicSiteDto = z.infer<typeof publicSiteSchema>;
