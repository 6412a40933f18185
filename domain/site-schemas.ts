import { z } from 'zod';
import { WEEKDAYS, type Weekday } from './enums';

// Sites as the API returns them (spec §3 "sites: … all columns are read").

const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'Use a time like 06:00');

export const hoursWindowSchema = z
  .object({ open: timeOfDay, close: timeOfDay })
  .refine((w) => w.close > w.open, { message: 'Closing time must be after opening time', path: ['close'] });

/** One weekday's opening windows in time order; empty: closed that day. Windows may not overlap. */
export const dayHoursSchema = z.array(hoursWindowSchema).max(6, 'At most 6 opening windows a day').superRefine((windows, ctx) => {
  for (let i = 1; i < windows.length; i++) {
    const previous = windows[i - 1]!;
    const current = windows[i]!;
    if (current.open < previous.close) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'open'],
        message: current.open < previous.open ? 'List the opening windows in time order' : `Overlaps the window ${previous.open}-${previous.close}`,
      });
    }
  }
});

/** Opening hours per weekday in the site's own time zone. */
export const operatingHoursSchema = z.object(Object.fromEntries(WEEKDAYS.map((day) => [day, dayHoursSchema])) as Record<Weekday, typeof dayHoursSchema>);

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
