import { z } from 'zod';
import { bookingListItemSchema } from './org-bookings';

// The organization admin dashboard (spec §2 "Organization admin dashboard"): what
// GET /api/orgs/:orgId/dashboard takes and answers. Every figure is computed from the database at
// the server's clock; "today" is each site's own calendar day in its time zone. The web derives
// its types from these schemas.

export const orgDashboardQuerySchema = z.object({
  /** One site of the organization; absent: the whole organization. */
  siteId: z.string().uuid().optional(),
});
export type OrgDashboardQuery = z.infer<typeof orgDashboardQuerySchema>;

/** A booking as the dashboard lists it (spec §3: tenant, bay, time, status, TSR number, vehicle type). */
export const dashboardBookingSchema = bookingListItemSchema.omit({ bookingType: true, source: true });
export type DashboardBooking = z.infer<typeof dashboardBookingSchema>;

export const dashboardSiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  /** The site's calendar day the "today" figures are for, 'YYYY-MM-DD'. */
  today: z.string(),
  activeBays: z.number(),
  /** Active bays holding a vehicle now (checked in, in progress or overstaying). */
  occupiedBays: z.number(),
  /** Live bookings (not declined, cancelled or no-show) starting today. */
  todaysBookings: z.number(),
  /** Whether the site opens today at all (its operating hours). */
  isOpenToday: z.boolean(),
  /** Booked minutes of today's live bookings within the opening hours, on active bays. */
  bookedMinutes: z.number(),
  /** Active bays × today's operating minutes. */
  capacityMinutes: z.number(),
  /** bookedMinutes ÷ capacityMinutes as a whole percentage; 0 when closed or without bays. */
  utilisationPercent: z.number(),
});
export type DashboardSite = z.infer<typeof dashboardSiteSchema>;

/** A site stopped for an emergency now (issue 22 item 6): which, since when, by whom, why. */
export const dashboardEmergencyStopSchema = z.object({
  siteId: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  /** When the stop began (ISO). */
  since: z.string(),
  reason: z.string().nullable(),
  /** Who stopped it; null when that account is gone. */
  byEmail: z.string().nullable(),
});
export type DashboardEmergencyStop = z.infer<typeof dashboardEmergencyStopSchema>;

export const orgDashboardSchema = z.object({
  /** The server's clock when the figures were computed (ISO). */
  generatedAt: z.string(),
  siteId: z.string().nullable(),
  stats: z.object({
    /** Pending requests starting from now on. */
    pendingRequests: z.number(),
    /** Live bookings starting today (each site's day). */
    todaysBookings: z.number(),
    /** Vehicles checked in, at a bay or overstaying. */
    onSiteNow: z.number(),
    /** Approved bookings whose start has passed without a check-in. */
    lateArrivals: z.number(),
    /** All active sites together: booked ÷ capacity minutes today, whole percentage. */
    utilisationPercent: z.number(),
  }),
  /** The five latest booking requests, newest first. */
  recentRequests: z.array(dashboardBookingSchema),
  liveOperations: z.object({
    /** Bookings on site now, by start. */
    onSite: z.array(dashboardBookingSchema),
    /** The next pending or approved arrivals of today, by start. */
    nextArrivals: z.array(dashboardBookingSchema),
  }),
  /** Each active site (or the chosen one), by name. */
  sites: z.array(dashboardSiteSchema),
  /** The sites (of those shown) stopped for an emergency now, by name. */
  emergencyStops: z.array(dashboardEmergencyStopSchema),
});
export type OrgDashboard = z.infer<typeof orgDashboardSchema>;

export const RECENT_REQUESTS_LIMIT = 5;
export const NEXT_ARRIVALS_LIMIT = 8;
