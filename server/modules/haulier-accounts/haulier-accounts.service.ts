import type { z } from 'zod';
import {
  HAULIER_BOOKINGS_PAGE_SIZE,
  HAULIER_STANDING_LIST_LIMIT,
  HAULIER_SESSION_DAYS,
  SIGN_IN_LINK_SENT,
  SIGN_IN_LINK_WINDOW_MIN,
  SIGN_IN_LINKS_PER_EMAIL,
  type HaulierAccount,
  type HaulierBookingsPage,
  type HaulierStandingBookings,
  type RebookPrefill,
  type SavedContact,
  type SavedVehicle,
  type haulierBookingsQuerySchema,
  type savedContactInputSchema,
  type savedVehicleInputSchema,
  type signInLinkRequestSchema,
  type standingRequestSchema,
} from '../../../domain/haulier-accounts';
import { languageOr } from '../../../domain/languages';
import { linkKeysOf } from '../../../domain/org-tenants';
import { readOrgSettings } from '../../../domain/org-settings';
import { writeAudit } from '../../audit/write-audit';
import { hashToken, randomToken } from '../../auth/tokens';
import type { AppContext } from '../../context';
import { enqueueMail } from '../../mail/outbox';
import { AppError, RetryLaterError } from '../../plugins/errors';
import { countHit } from '../../plugins/rate-limit-store';
import { manageUrlFor } from '../bookings/booking-mail-queue';
import { manageTokenFor } from '../bookings/manage-token';
import * as repo from './haulier-accounts.repo';
import { SIGN_IN_MAIL_KIND } from './sign-in-mail';

// Haulier accounts without passwords (issue 27 item 1, decision 044): the e-mailed one-time link,
// the session it opens, and what a signed-in haulier may read and keep. A haulier sees bookings made
// with their own address on any organization, and nothing else of those organizations.

/** The signed-in haulier, from the session cookie (never from the request's body or query). */
export type Haulier = HaulierAccount & { sessionId: string };

const notFoundError = () => new AppError(404, 'not_found', 'Not found');

/** Queues the sign-in mail; the same answer (and the same statements) whether or not the address is known. */
export async function requestSignInLink(ctx: AppContext, input: z.output<typeof signInLinkRequestSchema>, ip: string | null): Promise<{ message: string }> {
  const email = input.email.toLowerCase();
  if (!ctx.config.rateLimitDisabled) {
    const windowMs = SIGN_IN_LINK_WINDOW_MIN * 60_000;
    const { hits, ttlMs } = await countHit(ctx.database, `haulier-sign-in|${email}`, windowMs);
    if (hits > SIGN_IN_LINKS_PER_EMAIL) {
      const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
      throw new RetryLaterError(
        429,
        'too_many_sign_in_links',
        `Too many sign-in links were asked for this address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        Math.ceil(ttlMs / 1000),
      );
    }
  }
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    await enqueueMail(tx, now, [{ kind: SIGN_IN_MAIL_KIND, payload: { email, language: input.language ?? null, ip } }]);
    await writeAudit(tx, { actor: null, anonymousRole: 'public', action: 'haulier.sign_in_link_requested', resourceType: 'haulier_account', details: { email }, ip });
  });
  ctx.mailWorker?.kick();
  return { message: SIGN_IN_LINK_SENT };
}

/** Spends a sign-in link (once, within its 15 minutes), makes the account on a first sign-in, and opens a 30-day session. */
export async function signInWithLink(
  ctx: AppContext,
  input: { token: string; language?: string },
  ip: string | null,
): Promise<{ account: HaulierAccount; sessionToken: string; expiresAt: Date }> {
  const now = ctx.clock.now();
  const linkHash = hashToken(input.token);
  const sessionToken = randomToken();
  const expiresAt = new Date(now.getTime() + HAULIER_SESSION_DAYS * 86_400_000);
  const account = await ctx.database.db.transaction(async (tx) => {
    const link = await repo.consumeSignInLink(tx, linkHash, now);
    if (!link) {
      const known = await repo.findSignInLink(tx, linkHash);
      if (!known) throw new AppError(401, 'sign_in_link_invalid', 'This sign-in link is not valid. Ask for a new one.');
      if (known.usedAt) throw new AppError(410, 'sign_in_link_used', 'This sign-in link has already been used. Ask for a new one.');
      throw new AppError(410, 'sign_in_link_expired', 'This sign-in link has expired. Ask for a new one.');
    }
    const found = await repo.upsertAccount(tx, { email: link.email, language: languageOr(input.language), now });
    await repo.insertSession(tx, { accountId: found.id, tokenHash: hashToken(sessionToken), now, expiresAt });
    await writeAudit(tx, { actor: null, anonymousRole: 'public', action: 'haulier.signed_in', resourceType: 'haulier_account', resourceId: found.id, details: { email: found.email }, ip });
    return found;
  });
  return { account, sessionToken, expiresAt };
}

/** The haulier of a session cookie's token, or null (unknown, expired or signed out). */
export async function haulierOfSession(ctx: AppContext, token: string | null): Promise<Haulier | null> {
  if (!token) return null;
  return (await repo.findLiveSession(ctx.database.db, hashToken(token), ctx.clock.now())) ?? null;
}

export async function signOut(ctx: AppContext, haulier: Haulier, ip: string | null): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    await repo.revokeSession(tx, haulier.sessionId, ctx.clock.now());
    await writeAudit(tx, { actor: null, anonymousRole: 'public', action: 'haulier.signed_out', resourceType: 'haulier_account', resourceId: haulier.id, details: { email: haulier.email }, ip });
  });
}

export async function listBookings(ctx: AppContext, haulier: Haulier, query: z.output<typeof haulierBookingsQuerySchema>): Promise<HaulierBookingsPage> {
  const pageSize = HAULIER_BOOKINGS_PAGE_SIZE;
  const { items, total } = await repo.listBookingsAnyOrg(ctx.database.db, {
    email: haulier.email,
    scope: query.scope,
    now: ctx.clock.now(),
    limit: pageSize,
    offset: (query.page - 1) * pageSize,
  });
  return {
    page: query.page,
    pageSize,
    total,
    items: items.map(({ manageTokenHash, ...booking }) => {
      // The manage link is derived as the booking mails derive it; a booking made without one has none.
      const token = manageTokenFor(ctx.authSecret, booking.id);
      return {
        ...booking,
        startTime: booking.startTime.toISOString(),
        endTime: booking.endTime.toISOString(),
        manageUrl: manageTokenHash === hashToken(token) ? manageUrlFor(ctx, token) : null,
      };
    }),
  };
}

export async function rebookPrefill(ctx: AppContext, haulier: Haulier, bookingId: string): Promise<RebookPrefill> {
  const found = await repo.findBookingForRebookAnyOrg(ctx.database.db, haulier.email, bookingId);
  if (!found) throw notFoundError();
  const { orgSettings, siteId, ...values } = found;
  return {
    ...values,
    // The site only when the organization lets hauliers choose one (else the request's best fit picks it).
    siteId: readOrgSettings(orgSettings).booking.hauliersChooseSite ? siteId : null,
    specialAccessNeeds: values.specialAccessNeeds ?? [],
  };
}

export async function listVehicles(ctx: AppContext, haulier: Haulier): Promise<SavedVehicle[]> {
  return (await repo.listVehicles(ctx.database.db, haulier.id)) as SavedVehicle[];
}

export async function saveVehicle(ctx: AppContext, haulier: Haulier, input: z.output<typeof savedVehicleInputSchema>): Promise<SavedVehicle> {
  const saved = await repo.insertVehicle(ctx.database.db, haulier.id, { ...input, vehicleLengthM: input.vehicleLengthM ?? null, now: ctx.clock.now() });
  if (!saved) throw new AppError(409, 'vehicle_already_saved', `The vehicle ${input.vehicleRegistration} is already saved.`);
  return saved as SavedVehicle;
}

export async function deleteVehicle(ctx: AppContext, haulier: Haulier, id: string): Promise<void> {
  if (!(await repo.deleteVehicle(ctx.database.db, haulier.id, id))) throw notFoundError();
}

export async function listContacts(ctx: AppContext, haulier: Haulier): Promise<SavedContact[]> {
  return repo.listContacts(ctx.database.db, haulier.id);
}

export async function saveContact(ctx: AppContext, haulier: Haulier, input: z.output<typeof savedContactInputSchema>): Promise<SavedContact> {
  return repo.insertContact(ctx.database.db, haulier.id, { ...input, now: ctx.clock.now() });
}

export async function deleteContact(ctx: AppContext, haulier: Haulier, id: string): Promise<void> {
  if (!(await repo.deleteContact(ctx.database.db, haulier.id, id))) throw notFoundError();
}

/** The haulier's standing requests and series on every organization (their own address only), newest first. */
export async function listStandingBookings(ctx: AppContext, haulier: Haulier): Promise<HaulierStandingBookings> {
  const rows = await repo.listStandingBookingsAnyOrg(ctx.database.db, haulier.email, HAULIER_STANDING_LIST_LIMIT);
  return {
    items: rows.map(({ requestedByAccountId, createdAt, status, ...row }) => ({
      ...row,
      status: status as HaulierStandingBookings['items'][number]['status'],
      requestedByHaulier: requestedByAccountId !== null,
      createdAt: createdAt.toISOString(),
    })),
  };
}

export const STANDING_REQUESTS_NOT_ALLOWED =
  'This organization does not take standing booking requests from your e-mail address. Ask the site to set up a standing booking for you.';

/**
 * A signed-in haulier asks for a standing booking: allowed only where a tenant of the organization lets
 * its hauliers ask (standing_requests_allowed) and names the haulier's address by its e-mail domain or
 * contact e-mails. The row waits, 'requested', for an organization admin's approval.
 */
export async function requestStandingBooking(
  ctx: AppContext,
  haulier: Haulier,
  input: z.output<typeof standingRequestSchema>,
  ip: string | null,
): Promise<{ id: string; status: 'requested' }> {
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    if (!(await repo.findActiveSite(tx, input.orgId, input.siteId))) throw new AppError(404, 'not_found', 'Site not found');
    const keys = linkKeysOf(haulier.email, input.tenantName);
    const tenant = await repo.findStandingTenant(tx, input.orgId, keys);
    if (!tenant || (tenant.allowedSiteIds && !tenant.allowedSiteIds.includes(input.siteId))) {
      throw new AppError(403, 'standing_requests_not_allowed', STANDING_REQUESTS_NOT_ALLOWED);
    }
    const row = await repo.insertStandingRequest(tx, {
      orgId: input.orgId,
      siteId: input.siteId,
      tenantId: tenant.id,
      status: 'requested',
      weekdays: input.weekdays,
      startLocal: input.startLocal,
      durationMin: input.durationMin,
      startsOn: input.startsOn,
      endsOn: input.endsOn,
      bookingType: input.bookingType,
      tsrNumber: input.tsrNumber,
      tenantName: input.tenantName,
      contactName: input.contactName,
      tenantEmail: haulier.email,
      tenantPhone: input.tenantPhone ?? null,
      vehicleType: input.vehicleType,
      vehicleRegistration: input.vehicleRegistration,
      vehicleHeightM: input.vehicleHeightM,
      vehicleLengthM: input.vehicleLengthM ?? null,
      goodsDescription: input.goodsDescription ?? null,
      notes: input.notes ?? null,
      language: languageOr(input.language ?? haulier.language),
      requestedByAccountId: haulier.id,
      createdAt: now,
      updatedAt: now,
    });
    await writeAudit(tx, {
      actor: null,
      anonymousRole: 'public',
      action: 'standing_booking.requested',
      resourceType: 'standing_booking',
      resourceId: row.id,
      orgId: input.orgId,
      siteId: input.siteId,
      details: { email: haulier.email, weekdays: input.weekdays, startLocal: input.startLocal, durationMin: input.durationMin, startsOn: input.startsOn, endsOn: input.endsOn },
      ip,
    });
    return { id: row.id, status: 'requested' as const };
  });
}
