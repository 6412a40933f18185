import { and, asc, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  bookings,
  haulierAccounts,
  haulierSavedContacts,
  haulierSavedVehicles,
  haulierSessions,
  haulierSignInLinks,
  organizations,
  sites,
  standingBookings,
  tenants,
} from '../../db/schema';

// The SQL of haulier accounts (decision 044). The haulier_* tables are platform-wide: a haulier's
// account is theirs on every organization, so its rows are scoped by the account, never by an
// organization. Reads of organizations' tables without an organization end in AnyOrg (they are
// scoped by the signed-in haulier's own e-mail address instead, and say why).

type Conn = Db | Tx;

// ---- Sign-in links and sessions ----------------------------------------------------------------

export async function insertSignInLink(db: Conn, values: { email: string; tokenHash: string; expiresAt: Date; ip: string | null; now: Date }) {
  await db.insert(haulierSignInLinks).values({ email: values.email, tokenHash: values.tokenHash, expiresAt: values.expiresAt, ip: values.ip, createdAt: values.now });
}

/** Spends a link once: only an unused, unexpired link is marked used, so two racing requests cannot both win. */
export function consumeSignInLink(db: Conn, tokenHash: string, now: Date) {
  return db
    .update(haulierSignInLinks)
    .set({ usedAt: now })
    .where(and(eq(haulierSignInLinks.tokenHash, tokenHash), isNull(haulierSignInLinks.usedAt), gt(haulierSignInLinks.expiresAt, now)))
    .returning({ email: haulierSignInLinks.email })
    .then((rows) => rows[0]);
}

/** Why a link could not be spent: unknown, used or expired. */
export function findSignInLink(db: Conn, tokenHash: string) {
  return db
    .select({ usedAt: haulierSignInLinks.usedAt, expiresAt: haulierSignInLinks.expiresAt })
    .from(haulierSignInLinks)
    .where(eq(haulierSignInLinks.tokenHash, tokenHash))
    .then((rows) => rows[0]);
}

const accountRow = { id: haulierAccounts.id, email: haulierAccounts.email, language: haulierAccounts.language };

/** The account of an address (any case), made on its first sign-in. */
export async function upsertAccount(db: Conn, values: { email: string; language: string; now: Date }) {
  // The unique index is on lower(email): a new address is inserted, a known one only stamped.
  await db
    .insert(haulierAccounts)
    .values({ email: values.email.toLowerCase(), language: values.language, createdAt: values.now })
    .onConflictDoNothing();
  const rows = await db
    .update(haulierAccounts)
    .set({ lastSignInAt: values.now })
    .where(eq(sql`lower(${haulierAccounts.email})`, values.email.toLowerCase()))
    .returning(accountRow);
  return rows[0]!;
}

export function findAccountByEmail(db: Conn, email: string) {
  return db
    .select(accountRow)
    .from(haulierAccounts)
    .where(eq(sql`lower(${haulierAccounts.email})`, email.toLowerCase()))
    .then((rows) => rows[0]);
}

export async function insertSession(db: Conn, values: { accountId: string; tokenHash: string; now: Date; expiresAt: Date }) {
  await db.insert(haulierSessions).values({ accountId: values.accountId, tokenHash: values.tokenHash, createdAt: values.now, expiresAt: values.expiresAt });
}

/** The live session of a cookie's token and its account. */
export function findLiveSession(db: Conn, tokenHash: string, now: Date) {
  return db
    .select({ sessionId: haulierSessions.id, ...accountRow })
    .from(haulierSessions)
    .innerJoin(haulierAccounts, eq(haulierAccounts.id, haulierSessions.accountId))
    .where(and(eq(haulierSessions.tokenHash, tokenHash), isNull(haulierSessions.revokedAt), gt(haulierSessions.expiresAt, now)))
    .then((rows) => rows[0]);
}

export async function revokeSession(db: Conn, sessionId: string, now: Date) {
  await db.update(haulierSessions).set({ revokedAt: now }).where(and(eq(haulierSessions.id, sessionId), isNull(haulierSessions.revokedAt)));
}

// ---- The haulier's bookings, across organizations ------------------------------------------------

const bookingOfHaulier = (email: string) => eq(sql`lower(${bookings.tenantEmail})`, email.toLowerCase());

type HaulierBookingsPage = { email: string; scope: 'upcoming' | 'past'; now: Date; limit: number; offset: number };

/**
 * The two reads of a page of the haulier's bookings on every organization (AnyOrg: the haulier's own
 * address is the scope, as in listBookingsAnyOrg, which runs them; the plan test explains them): the
 * page, and the count of every booking in that scope.
 */
export function haulierBookingsQueriesAnyOrg(db: Conn, params: HaulierBookingsPage) {
  const isUpcoming = params.scope === 'upcoming';
  const where = and(bookingOfHaulier(params.email), isUpcoming ? gte(bookings.endTime, params.now) : lt(bookings.endTime, params.now));
  return {
    page: db
      .select({
        id: bookings.id,
        organizationName: organizations.name,
        siteName: sites.name,
        timeZone: sites.timeZone,
        startTime: bookings.startTime,
        endTime: bookings.endTime,
        status: bookings.status,
        bookingType: bookings.bookingType,
        tsrNumber: bookings.tsrNumber,
        vehicleType: bookings.vehicleType,
        vehicleRegistration: bookings.vehicleRegistration,
        manageTokenHash: bookings.manageTokenHash,
      })
      .from(bookings)
      .innerJoin(organizations, eq(organizations.id, bookings.orgId))
      .innerJoin(sites, eq(sites.id, bookings.siteId))
      .where(where)
      .orderBy(isUpcoming ? asc(bookings.startTime) : desc(bookings.startTime), asc(bookings.id))
      .limit(params.limit)
      .offset(params.offset),
    count: db.select({ n: sql<number>`count(*)::int` }).from(bookings).where(where),
  };
}

/**
 * One page of the bookings made with the haulier's e-mail address on EVERY organization — AnyOrg on
 * purpose: the haulier is not a member of any organization; their own address (from their session,
 * never the request) is the scope. Only the booking and where it is (organization and site names,
 * the site's time zone) are read, nothing else of the organization.
 */
export async function listBookingsAnyOrg(db: Conn, params: HaulierBookingsPage) {
  const { page, count } = haulierBookingsQueriesAnyOrg(db, params);
  const [items, [counted]] = await Promise.all([page, count]);
  return { items, total: Number(counted?.n ?? 0) };
}

/** One booking made with the haulier's address (any organization, as listBookingsAnyOrg), for the request form; none when it is another's. */
export function findBookingForRebookAnyOrg(db: Conn, email: string, bookingId: string) {
  return db
    .select({
      orgId: bookings.orgId,
      siteId: bookings.siteId,
      orgSettings: organizations.settings,
      tsrNumber: bookings.tsrNumber,
      tsrSystemType: bookings.tsrSystemType,
      tenantName: bookings.tenantName,
      contactName: bookings.contactName,
      tenantEmail: bookings.tenantEmail,
      tenantPhone: bookings.tenantPhone,
      bookingType: bookings.bookingType,
      expectedDurationMin: bookings.expectedDurationMin,
      vehicleType: bookings.vehicleType,
      vehicleRegistration: bookings.vehicleRegistration,
      vehicleHeightM: bookings.vehicleHeightM,
      vehicleLengthM: bookings.vehicleLengthM,
      specialAccessNeeds: bookings.specialAccessNeeds,
      goodsDescription: bookings.goodsDescription,
    })
    .from(bookings)
    .innerJoin(organizations, eq(organizations.id, bookings.orgId))
    .where(and(eq(bookings.id, bookingId), bookingOfHaulier(email)))
    .then((rows) => rows[0]);
}

// ---- Saved vehicles and contacts (the haulier's own rows) ----------------------------------------

const vehicleRow = {
  id: haulierSavedVehicles.id,
  label: haulierSavedVehicles.label,
  vehicleType: haulierSavedVehicles.vehicleType,
  vehicleRegistration: haulierSavedVehicles.vehicleRegistration,
  vehicleHeightM: haulierSavedVehicles.vehicleHeightM,
  vehicleLengthM: haulierSavedVehicles.vehicleLengthM,
};

export function listVehicles(db: Conn, accountId: string) {
  return db.select(vehicleRow).from(haulierSavedVehicles).where(eq(haulierSavedVehicles.accountId, accountId)).orderBy(asc(haulierSavedVehicles.createdAt), asc(haulierSavedVehicles.id));
}

/** None when the account has saved this registration already. */
export function insertVehicle(
  db: Conn,
  accountId: string,
  values: { label: string | null; vehicleType: string; vehicleRegistration: string; vehicleHeightM: number; vehicleLengthM: number | null; now: Date },
) {
  return db
    .insert(haulierSavedVehicles)
    .values({ accountId, label: values.label, vehicleType: values.vehicleType, vehicleRegistration: values.vehicleRegistration, vehicleHeightM: values.vehicleHeightM, vehicleLengthM: values.vehicleLengthM, createdAt: values.now })
    .onConflictDoNothing()
    .returning(vehicleRow)
    .then((rows) => rows[0]);
}

export async function deleteVehicle(db: Conn, accountId: string, id: string): Promise<boolean> {
  const rows = await db.delete(haulierSavedVehicles).where(and(eq(haulierSavedVehicles.accountId, accountId), eq(haulierSavedVehicles.id, id))).returning({ id: haulierSavedVehicles.id });
  return rows.length > 0;
}

const contactRow = { id: haulierSavedContacts.id, companyName: haulierSavedContacts.companyName, contactName: haulierSavedContacts.contactName, phone: haulierSavedContacts.phone };

export function listContacts(db: Conn, accountId: string) {
  return db.select(contactRow).from(haulierSavedContacts).where(eq(haulierSavedContacts.accountId, accountId)).orderBy(asc(haulierSavedContacts.createdAt), asc(haulierSavedContacts.id));
}

export function insertContact(db: Conn, accountId: string, values: { companyName: string; contactName: string | null; phone: string | null; now: Date }) {
  return db
    .insert(haulierSavedContacts)
    .values({ accountId, companyName: values.companyName, contactName: values.contactName, phone: values.phone, createdAt: values.now })
    .returning(contactRow)
    .then((rows) => rows[0]!);
}

export async function deleteContact(db: Conn, accountId: string, id: string): Promise<boolean> {
  const rows = await db.delete(haulierSavedContacts).where(and(eq(haulierSavedContacts.accountId, accountId), eq(haulierSavedContacts.id, id))).returning({ id: haulierSavedContacts.id });
  return rows.length > 0;
}

// ---- Standing requests ---------------------------------------------------------------------------

/** The organization's active site, for a standing request (none: not this organization's, or closed). */
export function findActiveSite(db: Conn, orgId: string, siteId: string) {
  return db
    .select({ id: sites.id })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.orgId))
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId), eq(sites.active, true), eq(organizations.active, true)))
    .then((rows) => rows[0]);
}

/**
 * The organization's active tenant that lets its hauliers request standing bookings and whose e-mail
 * domains or contact e-mails name this address (docs/tenant-linking.md; a company name proves nothing here).
 */
export function findStandingTenant(db: Conn, orgId: string, keys: { email: string; domain: string }) {
  return db
    .select({ id: tenants.id, allowedSiteIds: tenants.allowedSiteIds })
    .from(tenants)
    .where(
      and(
        eq(tenants.orgId, orgId),
        eq(tenants.status, 'active'),
        eq(tenants.standingRequestsAllowed, true),
        sql`(${tenants.emailDomains} @> array[${keys.domain}::text] or ${tenants.contactEmails} @> array[${keys.email}::text])`,
      ),
    )
    .orderBy(sql`${tenants.emailDomains} @> array[${keys.domain}::text] desc`, asc(tenants.createdAt), asc(tenants.id))
    .limit(1)
    .then((rows) => rows[0]);
}

export function insertStandingRequest(db: Conn, values: typeof standingBookings.$inferInsert) {
  return db.insert(standingBookings).values(values).returning({ id: standingBookings.id }).then((rows) => rows[0]!);
}

/**
 * The standing bookings made with the haulier's e-mail address on EVERY organization (their requests
 * and series an organization set up for them), newest first — AnyOrg on purpose, as
 * listBookingsAnyOrg: the address from the session is the scope. Only the series and where it is.
 */
export function listStandingBookingsAnyOrg(db: Conn, email: string, limit: number) {
  return db
    .select({
      id: standingBookings.id,
      status: standingBookings.status,
      organizationName: organizations.name,
      siteName: sites.name,
      timeZone: sites.timeZone,
      weekdays: standingBookings.weekdays,
      startLocal: standingBookings.startLocal,
      durationMin: standingBookings.durationMin,
      startsOn: standingBookings.startsOn,
      endsOn: standingBookings.endsOn,
      tsrNumber: standingBookings.tsrNumber,
      vehicleRegistration: standingBookings.vehicleRegistration,
      decisionReason: standingBookings.decisionReason,
      requestedByAccountId: standingBookings.requestedByAccountId,
      createdAt: standingBookings.createdAt,
    })
    .from(standingBookings)
    .innerJoin(organizations, eq(organizations.id, standingBookings.orgId))
    .innerJoin(sites, eq(sites.id, standingBookings.siteId))
    .where(eq(sql`lower(${standingBookings.tenantEmail})`, email.toLowerCase()))
    .orderBy(desc(standingBookings.createdAt), asc(standingBookings.id))
    .limit(limit);
}
