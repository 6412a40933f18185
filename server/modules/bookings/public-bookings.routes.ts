import { and, count, eq, max } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readOrgSettings } from '../../../domain/org-settings';
import { bookingInfoSchema } from '../../../domain/public-booking';
import { publicBookingsContract as contract } from '../../../domain/contract/public-bookings.contract';
import type { ModuleOptions } from '../../context';
import { bays, organizations, sites } from '../../db/schema';
import { perIpLimit } from '../../plugins/rate-limit';
import { getDayAvailability, type DayAvailability } from '../availability/availability.service';
import { acquireUploadSlot, readBookingMultipart, type MultipartSubmission } from './documents';
import {
  availabilityForManagedBooking,
  cancelManagedBooking,
  getManagedBooking,
  rescheduleManagedBooking,
} from './manage-booking.service';
import { acceptLateOffer, reportLate } from './late-report';
import { chosenSiteOf, submitPublicBooking } from './public-booking.service';

function toAvailabilityDto(day: DayAvailability) {
  return {
    date: day.date,
    timeZone: day.timeZone,
    compatibleBays: day.compatibleBays,
    siteName: day.siteName,
    siteToday: day.siteToday,
    lastBookableDate: day.lastBookableDate,
    notice: day.notice,
    isMonthFull: day.isMonthFull,
    slots: day.slots.map((s) => ({
      time: s.time,
      start: s.start.toISOString(),
      end: s.end.toISOString(),
      freeBays: s.bookable ? s.freeBays : 0,
      available: s.available,
    })),
  };
}

/** The public portal (no sign-in), rate-limited per IP. */
const publicBookingRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/booking-info',
    {
      config: perIpLimit(ctx, 120),
      schema: { ...contract['GET /api/public/booking-info'], tags: ['public booking'], summary: 'Bookable organizations and their sites (hours, bays, clearance)' },
    },
    async () => {
      const db = ctx.database.db;
      const rows = await db
        .select({
          orgId: organizations.id,
          orgName: organizations.name,
          orgSettings: organizations.settings,
          site: sites,
          bayCount: count(bays.id),
          maxClearanceM: max(bays.heightClearanceM),
        })
        .from(organizations)
        .innerJoin(sites, and(eq(sites.orgId, organizations.id), eq(sites.active, true)))
        .leftJoin(bays, and(eq(bays.siteId, sites.id), eq(bays.active, true)))
        .where(and(eq(organizations.active, true), eq(organizations.status, 'active')))
        .groupBy(organizations.id, sites.id)
        .orderBy(organizations.name, sites.name);
      const orgs = new Map<string, z.infer<typeof bookingInfoSchema>['organizations'][number]>();
      for (const row of rows) {
        let org = orgs.get(row.orgId);
        if (!org) {
          const settings = readOrgSettings(row.orgSettings);
          org = { id: row.orgId, name: row.orgName, hauliersChooseSite: settings.booking.hauliersChooseSite, defaultLanguage: settings.portal.defaultLanguage, sites: [] };
        }
        orgs.set(row.orgId, org);
        org.sites.push({
          id: row.site.id,
          name: row.site.name,
          address: row.site.address,
          timeZone: row.site.timeZone,
          operatingHours: row.site.operatingHours,
          minAdvanceMin: row.site.minAdvanceMin,
          bookingHorizonDays: row.site.bookingHorizonDays,
          bayCount: Number(row.bayCount),
          maxClearanceM: row.maxClearanceM === null ? null : Number(row.maxClearanceM),
          contactPhone: row.site.contactPhone,
          contactEmail: row.site.contactEmail,
        });
      }
      return { organizations: [...orgs.values()] };
    },
  );

  app.post(
    '/availability',
    {
      config: perIpLimit(ctx, 240),
      schema: {
        ...contract['POST /api/public/availability'],
        tags: ['public booking'],
        summary: "The day's slot grid: each slot's free compatible bays for the whole expected duration",
      },
    },
    async (request) => {
      const q = request.body;
      const siteId = await chosenSiteOf(ctx.database.db, q.orgId, q.siteId);
      const day = await getDayAvailability(
        ctx.database.db,
        {
          orgId: q.orgId,
          siteId,
          date: q.date,
          durationMin: q.durationMin,
          vehicleHeightM: q.vehicleHeightM,
          vehicleLengthM: q.vehicleLengthM,
          specialAccessNeeds: q.specialAccessNeeds,
        },
        ctx.clock.now(),
        { isMonthlyCapApplied: true },
      );
      return toAvailabilityDto(day);
    },
  );

  app.post(
    '/bookings',
    {
      config: perIpLimit(ctx, 20),
      schema: {
        ...contract['POST /api/public/bookings'],
        tags: ['public booking'],
        summary: 'Submit a booking request (multipart: a `data` JSON field, then up to 10 `documents` files)',
      },
    },
    async (request, reply) => {
      let submission: MultipartSubmission = { data: request.body, documents: [], cleanup: async () => undefined };
      let release = () => {};
      if (request.isMultipart() || String(request.headers['content-type'] ?? '').startsWith('multipart/')) {
        try {
          release = await acquireUploadSlot();
        } catch (error) {
          reply.header('retry-after', '5');
          throw error;
        }
        try {
          submission = await readBookingMultipart(request);
        } catch (error) {
          release();
          throw error;
        }
      }
      let result;
      try {
        result = await submitPublicBooking(ctx, {
          data: submission.data,
          documents: submission.documents,
          idempotencyKey: request.headers['idempotency-key'],
          ip: request.ip,
        });
      } finally {
        release();
        await submission.cleanup();
      }
      // A replay answers what the first answer said; the header tells a client it was one.
      return reply.code(201).header('idempotent-replayed', String(result.replay)).send(result.booking);
    },
  );

  app.get(
    '/manage/:token',
    {
      config: perIpLimit(ctx, 60),
      schema: { ...contract['GET /api/public/manage/:token'], tags: ['public booking'], summary: 'A booking seen through its private manage link' },
    },
    async (request) => getManagedBooking(ctx, request.params.token),
  );

  app.post(
    '/manage/:token/cancel',
    {
      config: perIpLimit(ctx, 20),
      schema: {
        ...contract['POST /api/public/manage/:token/cancel'],
        tags: ['public booking'],
        summary: 'Cancel a pending or approved booking before it starts',
      },
    },
    async (request) => cancelManagedBooking(ctx, request.params.token, request.body.reason, request.ip),
  );

  app.post(
    '/manage/:token/availability',
    {
      config: perIpLimit(ctx, 120),
      schema: {
        ...contract['POST /api/public/manage/:token/availability'],
        tags: ['public booking'],
        summary: 'Slot grid for moving this booking',
      },
    },
    async (request) => toAvailabilityDto(await availabilityForManagedBooking(ctx, request.params.token, request.body.date)),
  );

  app.post(
    '/manage/:token/reschedule',
    {
      config: perIpLimit(ctx, 20),
      schema: {
        ...contract['POST /api/public/manage/:token/reschedule'],
        tags: ['public booking'],
        summary: 'Move the booking to another free slot (it is reviewed again)',
      },
    },
    async (request) => rescheduleManagedBooking(ctx, request.params.token, request.body, request.ip),
  );

  // Running late (issue 26 item 5): report an ETA on the day; accept one of the slots offered when it no longer fits.
  app.post(
    '/manage/:token/late',
    {
      config: perIpLimit(ctx, 20),
      schema: {
        ...contract['POST /api/public/manage/:token/late'],
        tags: ['public booking'],
        summary: 'Report running late: the ETA at the site today; answers whether the slot still fits, else the nearest free slots',
      },
    },
    async (request) => reportLate(ctx, request.params.token, request.body, request.ip),
  );

  app.post(
    '/manage/:token/late/accept',
    {
      config: perIpLimit(ctx, 20),
      schema: {
        ...contract['POST /api/public/manage/:token/late/accept'],
        tags: ['public booking'],
        summary: 'Move a late booking to one of the offered slots (it is reviewed again)',
      },
    },
    async (request) => acceptLateOffer(ctx, request.params.token, request.body, request.ip),
  );
};

export default publicBookingRoutes;
