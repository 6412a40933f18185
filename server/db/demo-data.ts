import { randomUUID } from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import {
  BOOKING_WINDOW_MIN,
  DEFAULT_OPERATING_HOURS,
  OVERSTAY_THRESHOLD_MIN,
  type OperatingHours,
} from '../../domain/constants';
import {
  WEEKDAYS,
  type BayFeature,
  type BookingStatus,
  type BookingType,
  type SpecialAccessNeed,
  type TsrSystemType,
  type VehicleType,
} from '../../domain/enums';
import { reachableStatuses, RELEASED_BOOKING_STATUSES } from '../../domain/booking-lifecycle';
import { INVOICE_DUE_DAYS, periodBounds, periodKeyOf, subscriptionLine } from '../../domain/billing';
import type {
  auditLog,
  bays,
  billing,
  blackouts,
  bookings,
  invoices,
  organizations,
  orgMemberships,
  plans,
  sites,
  tenants,
  users,
  EmergencyContact,
} from './schema';

// The demo data set of the README, built as plain rows without any I/O so it can be tested and
// inserted in one transaction. Everything but the row ids comes from a seeded PRNG and the given
// clock, so the same `now` always yields the same organizations, bays, bookings and statuses.

export type DemoData = {
  plans: (typeof plans.$inferInsert)[];
  organizations: (typeof organizations.$inferInsert)[];
  billing: (typeof billing.$inferInsert)[];
  invoices: (typeof invoices.$inferInsert)[];
  users: (typeof users.$inferInsert)[];
  memberships: (typeof orgMemberships.$inferInsert)[];
  sites: (typeof sites.$inferInsert)[];
  bays: (typeof bays.$inferInsert)[];
  tenants: (typeof tenants.$inferInsert)[];
  blackouts: (typeof blackouts.$inferInsert)[];
  bookings: (typeof bookings.$inferInsert)[];
  audit: (typeof auditLog.$inferInsert)[];
};

export const DEMO_SEED = 20_260_101;
const PAST_DAYS = 30;
const FUTURE_DAYS = 14;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How many past calendar months of invoices the demo holds (a month before an organization existed has none). */
const DEMO_INVOICE_MONTHS = 12;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): small, fast and good enough for demo data.

export type Random = ReturnType<typeof createRandom>;

export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  /** Picks a key by weight: [[value, weight], …]. */
  const weighted = <T>(entries: readonly (readonly [T, number])[]): T => {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1][0];
  };
  return { next, int, pick, weighted, chance: (p: number) => next() < p };
}

// ---------------------------------------------------------------------------------------------
// Site-local calendar helpers.

type LocalDay = { year: number; month: number; date: number; weekday: (typeof WEEKDAYS)[number] };

/** The calendar day `offset` days from `now`'s day in `timeZone`. */
export function localDay(now: Date, timeZone: string, offset: number): LocalDay {
  const today = new TZDate(now.getTime(), timeZone);
  const day = new TZDate(today.getFullYear(), today.getMonth(), today.getDate() + offset, timeZone);
  // getDay(): 0 = Sunday; WEEKDAYS starts on Monday.
  return { year: day.getFullYear(), month: day.getMonth(), date: day.getDate(), weekday: WEEKDAYS[(day.getDay() + 6) % 7] };
}

/** The instant at `minutes` past local midnight of `day` in `timeZone`, as a plain Date. */
export function atLocal(day: LocalDay, minutes: number, timeZone: string): Date {
  const local = new TZDate(day.year, day.month, day.date, Math.floor(minutes / 60), minutes % 60, timeZone);
  return new Date(local.getTime());
}

export const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

// ---------------------------------------------------------------------------------------------
// The fixed part: plans, organizations, sites, bays, tenants and their fleets, people.

type BayDef = { name: string; clearanceM: number; lengthM: number; features: BayFeature[] };
type SiteDef = {
  name: string;
  address: string;
  timeZone: string;
  contactPhone: string;
  contactEmail: string;
  emergencyContacts: EmergencyContact[];
  /** Typical bookings on a weekday; weekends see fewer. */
  bookingsPerWeekday: number;
  bays: BayDef[];
};
type VehicleDef = { type: VehicleType; registration: string; heightM: number; lengthM: number; needs: SpecialAccessNeed[] };
/** A tenant's booking policy and how portal requests link to it (docs/tenant-linking.md). */
type TenantPolicyDef = {
  emailDomains?: string[];
  /** Besides the tenant's e-mail, which is always a contact. */
  contactEmails?: string[];
  blockedReason?: string;
  autoApprove?: boolean;
  /** Site names; absent: every site. */
  allowedSites?: string[];
  maxBookingsPerDay?: number;
  notes?: string;
};
type TenantDef = {
  name: string;
  contactName: string;
  email: string;
  phone: string;
  weight: number;
  goods: string[];
  fleet: VehicleDef[];
  policy?: TenantPolicyDef;
};
type OrgDef = {
  name: string;
  slug: string;
  contactEmail: string;
  contactPhone: string;
  plan: string;
  createdDaysAgo: number;
  sites: SiteDef[];
  tenants: TenantDef[];
};

const PLAN_DEFS = [
  {
    name: 'Starter',
    description: 'One site, up to 300 bookings a month, the public booking portal and e-mail notifications.',
    priceCents: 9_900,
    maxSites: 1,
    maxBays: 10,
    maxUsers: 10,
    maxBookingsPerMonth: 300,
    features: ['Public booking portal', 'E-mail notifications', 'Live operations board'],
  },
  {
    name: 'Professional',
    description: 'Several sites and unlimited bookings, with plate recognition, reports and CSV exports.',
    priceCents: 29_900,
    maxSites: 5,
    maxBays: 60,
    maxUsers: 50,
    maxBookingsPerMonth: null,
    features: ['Public booking portal', 'E-mail notifications', 'Live operations board', 'Plate recognition', 'Reports and CSV'],
  },
  {
    name: 'Enterprise',
    description: 'Unlimited sites and bays, ANPR camera webhooks and a dedicated success manager.',
    priceCents: 79_900,
    maxSites: null,
    maxBays: null,
    maxUsers: null,
    maxBookingsPerMonth: null,
    features: [
      'Public booking portal',
      'E-mail notifications',
      'Live operations board',
      'Plate recognition',
      'Reports and CSV',
      'ANPR camera webhooks',
      'Dedicated success manager',
    ],
  },
] as const;

const contacts = (security: string, firstAid: string, manager: string): EmergencyContact[] => [
  { label: 'Security', extension: security },
  { label: 'First aid', extension: firstAid },
  { label: 'Site manager', extension: manager },
];

const ORG_DEFS: OrgDef[] = [
  {
    name: 'Acme Logistics',
    slug: 'acme-logistics',
    contactEmail: 'operations@acme.test',
    contactPhone: '+61 2 9555 0100',
    plan: 'Professional',
    createdDaysAgo: 90,
    sites: [
      {
        name: 'North Terminal',
        address: '1 Terminal Drive, Port Botany NSW 2036',
        timeZone: 'Australia/Sydney',
        contactPhone: '+61 2 9555 0110',
        contactEmail: 'north.terminal@acme.test',
        emergencyContacts: contacts('2222', '3333', '4444'),
        bookingsPerWeekday: 8,
        bays: [
          { name: 'N-01', clearanceM: 3.8, lengthM: 12, features: [] },
          { name: 'N-02', clearanceM: 3.8, lengthM: 12, features: [] },
          { name: 'N-03', clearanceM: 4.0, lengthM: 14, features: ['refrigerated'] },
          { name: 'N-04', clearanceM: 4.0, lengthM: 14, features: ['refrigerated'] },
          { name: 'N-05', clearanceM: 4.2, lengthM: 16, features: [] },
          { name: 'N-06', clearanceM: 4.2, lengthM: 16, features: [] },
          { name: 'N-07', clearanceM: 4.5, lengthM: 19, features: ['hazardous'] },
          { name: 'N-08', clearanceM: 4.5, lengthM: 19, features: [] },
          { name: 'N-09', clearanceM: 4.8, lengthM: 20, features: ['refrigerated'] },
          { name: 'N-10', clearanceM: 5.0, lengthM: 22, features: ['oversize'] },
          { name: 'N-11', clearanceM: 5.2, lengthM: 26, features: ['oversize', 'escort'] },
          { name: 'N-12', clearanceM: 5.5, lengthM: 26, features: ['oversize', 'escort', 'hazardous'] },
        ],
      },
      {
        name: 'South Terminal',
        address: '45 Wharf Road, Port Botany NSW 2036',
        timeZone: 'Australia/Sydney',
        contactPhone: '+61 2 9555 0120',
        contactEmail: 'south.terminal@acme.test',
        emergencyContacts: contacts('2225', '3335', '4445'),
        bookingsPerWeekday: 5,
        bays: [
          { name: 'S-01', clearanceM: 3.2, lengthM: 10, features: [] },
          { name: 'S-02', clearanceM: 3.2, lengthM: 10, features: [] },
          { name: 'S-03', clearanceM: 3.5, lengthM: 12, features: [] },
          { name: 'S-04', clearanceM: 3.5, lengthM: 12, features: [] },
          { name: 'S-05', clearanceM: 3.8, lengthM: 14, features: ['refrigerated'] },
          { name: 'S-06', clearanceM: 3.8, lengthM: 14, features: [] },
          { name: 'S-07', clearanceM: 4.0, lengthM: 16, features: [] },
          { name: 'S-08', clearanceM: 4.2, lengthM: 19, features: ['hazardous'] },
        ],
      },
    ],
    tenants: [
      {
        name: 'Coastal Freight Co',
        contactName: 'Mia Chen',
        email: 'dispatch@coastalfreight.test',
        policy: { emailDomains: ['coastalfreight.test'], notes: 'Largest customer: dry goods for the North Terminal retail DC.' },
        phone: '+61 2 9555 1201',
        weight: 5,
        goods: ['Palletised dry goods, 18 pallets', 'Mixed grocery pallets, 22 pallets', 'Beverage cartons, 20 pallets'],
        fleet: [
          { type: 'semi', registration: 'CFC21A', heightM: 4.3, lengthM: 19, needs: [] },
          { type: 'rigid', registration: 'CFC34B', heightM: 3.6, lengthM: 10.5, needs: [] },
          { type: 'rigid', registration: 'CFC58D', heightM: 3.4, lengthM: 9, needs: [] },
          { type: 'b-double', registration: 'CFC77X', heightM: 4.3, lengthM: 26, needs: ['oversize'] },
        ],
      },
      {
        name: 'Metro Haulage',
        contactName: "Liam O'Brien",
        email: 'bookings@metrohaulage.test',
        policy: { emailDomains: ['metrohaulage.test'], autoApprove: true, notes: 'Trusted carrier since 2023: requests are approved at once.' },
        phone: '+61 2 9555 1302',
        weight: 4,
        goods: ['Retail cartons, 12 pallets', 'Furniture flat-packs', 'Returns for consolidation'],
        fleet: [
          { type: 'rigid', registration: 'MHL12K', heightM: 3.5, lengthM: 10, needs: [] },
          { type: 'van', registration: 'MHL45V', heightM: 2.6, lengthM: 6.5, needs: [] },
          { type: 'rigid', registration: 'MHL88R', heightM: 3.8, lengthM: 12, needs: [] },
        ],
      },
      {
        name: 'Southern Cross Transport',
        contactName: 'Priya Nair',
        email: 'ops@southerncross.test',
        policy: { emailDomains: ['southerncross.test'], allowedSites: ['North Terminal'], notes: 'Steel and oversize loads: North Terminal only.' },
        phone: '+61 2 9555 1403',
        weight: 3,
        goods: ['Steel coil, 24 t', 'Building materials', 'Timber bundles'],
        fleet: [
          { type: 'semi', registration: 'SCT30S', heightM: 4.2, lengthM: 19, needs: [] },
          { type: 'semi', registration: 'SCT31S', heightM: 4.3, lengthM: 19, needs: [] },
          { type: 'b-double', registration: 'SCT90B', heightM: 4.3, lengthM: 26, needs: ['oversize', 'escort'] },
        ],
      },
      {
        name: 'Pacific Cold Chain',
        contactName: 'Tom Walker',
        email: 'coldchain@pacificcc.test',
        policy: { emailDomains: ['pacificcc.test'], maxBookingsPerDay: 6 },
        phone: '+61 2 9555 1504',
        weight: 3,
        goods: ['Chilled produce, 10 pallets', 'Frozen meat, 16 pallets', 'Chilled dairy, 8 pallets'],
        fleet: [
          { type: 'rigid', registration: 'PCC16F', heightM: 3.6, lengthM: 11, needs: ['refrigerated'] },
          { type: 'semi', registration: 'PCC40F', heightM: 4.3, lengthM: 19, needs: ['refrigerated'] },
        ],
      },
      {
        name: 'Redline Couriers',
        contactName: 'Ava Rossi',
        email: 'hello@redline.test',
        policy: { contactEmails: ['dispatch.redline@gmail.com'], blockedReason: 'Three no-shows in a row; on hold until the account manager has spoken to them.' },
        phone: '+61 2 9555 1605',
        weight: 4,
        goods: ['Parcels and satchels', 'Small freight, 3 pallets', 'Urgent spare parts'],
        fleet: [
          { type: 'van', registration: 'RLC01V', heightM: 2.4, lengthM: 5.5, needs: [] },
          { type: 'van', registration: 'RLC02V', heightM: 2.7, lengthM: 6.9, needs: [] },
          { type: 'car', registration: 'RLC09C', heightM: 1.6, lengthM: 4.8, needs: [] },
        ],
      },
      {
        name: 'Outback Bulk Logistics',
        contactName: 'Noah Williams',
        email: 'dangerousgoods@outbackbulk.test',
        policy: { emailDomains: ['outbackbulk.test'], maxBookingsPerDay: 3, notes: 'Dangerous goods: hazardous bays only, dangerous-goods licence checked at the gate.' },
        phone: '+61 2 9555 1706',
        weight: 2,
        goods: ['Class 3 flammable liquids, 4 IBCs', 'Class 8 corrosives, 6 drums', 'Compressed gas cylinders'],
        fleet: [
          { type: 'semi', registration: 'OBL55H', heightM: 4.2, lengthM: 19, needs: ['hazardous'] },
          { type: 'rigid', registration: 'OBL23H', heightM: 3.5, lengthM: 11, needs: ['hazardous'] },
        ],
      },
    ],
  },
  {
    name: 'Harbour Foods',
    slug: 'harbour-foods',
    contactEmail: 'operations@harbour.test',
    contactPhone: '+61 7 3555 0200',
    plan: 'Starter',
    createdDaysAgo: 60,
    sites: [
      {
        name: 'Harbour DC',
        address: '12 Cold Store Lane, Pinkenba QLD 4008',
        timeZone: 'Australia/Brisbane',
        contactPhone: '+61 7 3555 0210',
        contactEmail: 'dc@harbour.test',
        emergencyContacts: contacts('5222', '5333', '5444'),
        bookingsPerWeekday: 3,
        bays: [
          { name: 'H-01', clearanceM: 4.0, lengthM: 14, features: ['refrigerated'] },
          { name: 'H-02', clearanceM: 4.3, lengthM: 19, features: ['refrigerated'] },
          { name: 'H-03', clearanceM: 4.6, lengthM: 20, features: ['refrigerated'] },
          { name: 'H-04', clearanceM: 4.6, lengthM: 26, features: [] },
        ],
      },
    ],
    tenants: [
      {
        name: 'FreshWay Produce',
        contactName: 'Grace Thompson',
        email: 'orders@freshway.test',
        policy: { emailDomains: ['freshway.test'], autoApprove: true },
        phone: '+61 7 3555 2101',
        weight: 4,
        goods: ['Fresh fruit and vegetables, 14 pallets', 'Leafy greens, 8 pallets'],
        fleet: [
          { type: 'rigid', registration: '412FWP', heightM: 3.7, lengthM: 11, needs: ['refrigerated'] },
          { type: 'semi', registration: '418FWP', heightM: 4.3, lengthM: 19, needs: ['refrigerated'] },
        ],
      },
      {
        name: 'Bayside Dairy Co',
        contactName: 'Jack Murphy',
        email: 'logistics@baysidedairy.test',
        policy: { emailDomains: ['baysidedairy.test'] },
        phone: '+61 7 3555 2202',
        weight: 3,
        goods: ['Chilled dairy, 10 pallets', 'Yoghurt and cheese, 6 pallets'],
        fleet: [{ type: 'rigid', registration: '523BDC', heightM: 3.6, lengthM: 10, needs: ['refrigerated'] }],
      },
      {
        name: 'Polar Express Refrigerated',
        contactName: 'Chloe Martin',
        email: 'dispatch@polarexpress.test',
        policy: { emailDomains: ['polarexpress.test'] },
        phone: '+61 7 3555 2303',
        weight: 2,
        goods: ['Frozen seafood, 20 pallets', 'Ice cream, 18 pallets'],
        fleet: [{ type: 'semi', registration: '634PXR', heightM: 4.3, lengthM: 19, needs: ['refrigerated'] }],
      },
      {
        name: 'Golden Grain Millers',
        contactName: 'Ethan Brown',
        email: 'transport@goldengrain.test',
        policy: { emailDomains: ['goldengrain.test'] },
        phone: '+61 7 3555 2404',
        weight: 2,
        goods: ['Flour sacks, 22 pallets', 'Rice and grains, 20 pallets'],
        fleet: [
          { type: 'semi', registration: '745GGM', heightM: 4.2, lengthM: 19, needs: [] },
          { type: 'van', registration: '756GGM', heightM: 2.5, lengthM: 6, needs: [] },
        ],
      },
    ],
  },
];

type UserDef = {
  email: string;
  fullName: string;
  phone: string;
  platformRole?: 'super_admin' | 'platform_support';
  membership?: { org: string; role: 'org_admin' | 'dockmaster' | 'security'; employeeId?: string };
};

/**
 * The demo accounts (README and the sign-in hints); the security officer is an extra team member and
 * the support agent an extra platform user (read-only platform screens, decision 014).
 */
const USER_DEFS: UserDef[] = [
  { email: 'super@baywise.test', fullName: 'Sophie Tran', phone: '+61 2 9000 0001', platformRole: 'super_admin' },
  { email: 'support@baywise.test', fullName: 'Priya Nair', phone: '+61 2 9000 0002', platformRole: 'platform_support' },
  {
    email: 'admin@acme.test',
    fullName: 'Alex Morgan',
    phone: '+61 2 9555 0101',
    membership: { org: 'acme-logistics', role: 'org_admin' },
  },
  {
    email: 'dock@acme.test',
    fullName: 'Dan Kelly',
    phone: '+61 2 9555 0102',
    membership: { org: 'acme-logistics', role: 'dockmaster', employeeId: 'D1001' },
  },
  {
    email: 'security@acme.test',
    fullName: 'Sam Patel',
    phone: '+61 2 9555 0103',
    membership: { org: 'acme-logistics', role: 'security', employeeId: 'S1001' },
  },
  {
    email: 'admin@harbour.test',
    fullName: 'Hannah Lee',
    phone: '+61 7 3555 0201',
    membership: { org: 'harbour-foods', role: 'org_admin' },
  },
];

const DURATIONS: Record<VehicleType, number[]> = {
  car: [30, 30, 45],
  van: [30, 45, 60],
  rigid: [45, 60, 60, 90],
  semi: [60, 90, 90, 120],
  'b-double': [90, 120],
  other: [30, 60],
};

const DECLINE_REASONS = [
  'Requested time clashes with a site stocktake',
  'TSR reference could not be verified',
  'Duplicate request',
  'Vehicle not suitable for the requested bay',
];
const NOTES = ['Driver will call 15 minutes before arrival', 'Tail-lift required', 'Forklift needed for unloading', 'Side loading only'];

// ---------------------------------------------------------------------------------------------

type PlacedBooking = {
  row: typeof bookings.$inferInsert & { id: string; startTime: Date; endTime: Date; createdAt: Date };
  dayOffset: number;
};

/** Builds the whole demo data set for the given clock. Pure but for random row ids. */
export function buildDemoData(input: { now: Date; passwordHash: string; seed?: number }): DemoData {
  const { now, passwordHash } = input;
  const random = createRandom(input.seed ?? DEMO_SEED);
  // A second stream for arrival punctuality and booking sources, so adding them left every other
  // draw (and so the rest of the data set) as it was.
  const variety = createRandom((input.seed ?? DEMO_SEED) + 1);
  const nowMs = now.getTime();
  const ago = (ms: number) => new Date(nowMs - ms);

  const data: DemoData = {
    plans: [],
    organizations: [],
    billing: [],
    invoices: [],
    users: [],
    memberships: [],
    sites: [],
    bays: [],
    tenants: [],
    blackouts: [],
    bookings: [],
    audit: [],
  };

  const planIds = new Map<string, string>();
  for (const def of PLAN_DEFS) {
    const id = randomUUID();
    planIds.set(def.name, id);
    data.plans.push({ id, ...def, features: [...def.features], createdAt: ago(120 * DAY) });
  }

  // People first: audit entries and blackouts name them.
  const orgIds = new Map<string, string>();
  for (const def of ORG_DEFS) orgIds.set(def.slug, randomUUID());
  const userIds = new Map<string, string>();
  for (const def of USER_DEFS) {
    const id = randomUUID();
    userIds.set(def.email, id);
    data.users.push({
      id,
      email: def.email,
      passwordHash,
      fullName: def.fullName,
      phone: def.phone,
      platformRole: def.platformRole ?? null,
      active: true,
      emailConfirmedAt: ago(100 * DAY),
      createdAt: ago(100 * DAY),
      updatedAt: ago(100 * DAY),
    });
    if (def.membership) {
      data.memberships.push({
        orgId: orgIds.get(def.membership.org)!,
        userId: id,
        role: def.membership.role,
        active: true,
        employeeId: def.membership.employeeId ?? null,
        createdAt: ago(85 * DAY),
      });
    }
  }
  const superId = userIds.get('super@baywise.test')!;

  let invoiceNumber = 1;
  const placed: PlacedBooking[] = [];
  const siteBays = new Map<string, { id: string; def: BayDef }[]>();

  for (const orgDef of ORG_DEFS) {
    const orgId = orgIds.get(orgDef.slug)!;
    const planId = planIds.get(orgDef.plan)!;
    const plan = PLAN_DEFS.find((p) => p.name === orgDef.plan)!;
    const orgCreated = ago(orgDef.createdDaysAgo * DAY);
    data.organizations.push({
      id: orgId,
      name: orgDef.name,
      slug: orgDef.slug,
      status: 'active',
      active: true,
      contactEmail: orgDef.contactEmail,
      contactPhone: orgDef.contactPhone,
      createdAt: orgCreated,
    });
    // The current billing period is the calendar month (UTC): it ends on the 1st of the next.
    data.billing.push({ orgId, planId, status: 'active', currentPeriodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)), updatedAt: orgCreated });
    // Monthly invoices as the monthly run issues them (decision 022): each calendar month (UTC) the
    // organization existed in, issued at 00:10 on the 1st of the next, due 14 days later. Acme pays
    // the next day; Harbour Foods ten days after issue, and its latest invoice is still open. So the
    // 30-day revenue always holds a payment whatever the date, and there is an invoice to mark paid.
    const paysAfterDays = orgDef.slug === 'acme-logistics' ? 1 : 10;
    let isLatest = true;
    for (let back = 1; back <= DEMO_INVOICE_MONTHS; back++) {
      const period = periodKeyOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)));
      const { start, end } = periodBounds(period);
      const issuedAt = new Date(end.getTime() + 10 * MINUTE);
      if (orgCreated.getTime() >= end.getTime() || issuedAt.getTime() > nowMs) continue;
      const line = subscriptionLine(plan.name, plan.priceCents, period, orgCreated);
      const paidAt = new Date(issuedAt.getTime() + paysAfterDays * DAY);
      const isPaid = paidAt.getTime() <= nowMs && !(orgDef.slug === 'harbour-foods' && isLatest);
      isLatest = false;
      data.invoices.push({
        orgId,
        planId,
        number: `INV-${period.replace('-', '')}-${String(invoiceNumber++).padStart(6, '0')}`,
        status: isPaid ? 'paid' : 'open',
        currency: 'USD',
        amountDue: line.amount,
        amountPaid: isPaid ? line.amount : '0',
        periodKey: period,
        periodStart: start,
        periodEnd: end,
        lineItems: [line],
        issuedAt,
        dueAt: new Date(issuedAt.getTime() + INVOICE_DUE_DAYS * DAY),
        paidAt: isPaid ? paidAt : null,
        paymentMethod: isPaid ? 'manual' : null,
        paymentRef: isPaid ? `Bank transfer ${orgDef.slug.slice(0, 4).toUpperCase()}-${period}` : null,
        createdAt: issuedAt,
      });
    }
    data.audit.push({
      actorId: superId,
      actorEmail: 'super@baywise.test',
      actorRole: 'super_admin',
      action: 'organization.created',
      resourceType: 'organization',
      resourceId: orgId,
      orgId,
      details: { name: orgDef.name, plan: orgDef.plan },
      createdAt: orgCreated,
    });

    const tenantIds = new Map<string, string>();
    const restrictedTenants: { row: (typeof data.tenants)[number]; sites: string[] }[] = [];
    for (const tenant of orgDef.tenants) {
      const id = randomUUID();
      tenantIds.set(tenant.name, id);
      const policy = tenant.policy ?? {};
      const isBlocked = policy.blockedReason !== undefined;
      const row: (typeof data.tenants)[number] = {
        id,
        orgId,
        name: tenant.name,
        contactName: tenant.contactName,
        email: tenant.email,
        phone: tenant.phone,
        notes: policy.notes ?? null,
        active: !isBlocked,
        contactEmails: [tenant.email, ...(policy.contactEmails ?? [])],
        emailDomains: policy.emailDomains ?? [],
        status: isBlocked ? 'blocked' : 'active',
        blockedReason: policy.blockedReason ?? null,
        autoApprove: policy.autoApprove ?? false,
        allowedSiteIds: null,
        maxBookingsPerDay: policy.maxBookingsPerDay ?? null,
        createdAt: new Date(orgCreated.getTime() + DAY),
        updatedAt: new Date(orgCreated.getTime() + DAY),
      };
      data.tenants.push(row);
      if (policy.allowedSites) restrictedTenants.push({ row, sites: policy.allowedSites });
    }

    const vehicleSchedule = new BaySchedule();
    for (const siteDef of orgDef.sites) {
      const siteId = randomUUID();
      data.sites.push({
        id: siteId,
        orgId,
        name: siteDef.name,
        address: siteDef.address,
        timeZone: siteDef.timeZone,
        contactPhone: siteDef.contactPhone,
        contactEmail: siteDef.contactEmail,
        emergencyContacts: siteDef.emergencyContacts,
        active: true,
        createdAt: orgCreated,
      });
      const baysHere = siteDef.bays.map((def) => ({ id: randomUUID(), def }));
      siteBays.set(siteId, baysHere);
      for (const { id, def } of baysHere) {
        data.bays.push({
          id,
          orgId,
          siteId,
          name: def.name,
          heightClearanceM: def.clearanceM,
          lengthM: def.lengthM,
          capacity: 1,
          features: def.features,
          active: true,
          createdAt: orgCreated,
        });
      }
      const schedule = new BaySchedule();
      for (const blackout of demoBlackouts(siteDef, now)) {
        const bay = blackout.bayName ? baysHere.find((b) => b.def.name === blackout.bayName)! : null;
        const adminId = userIds.get(orgDef.slug === 'acme-logistics' ? 'admin@acme.test' : 'admin@harbour.test')!;
        const id = randomUUID();
        data.blackouts.push({
          id,
          orgId,
          siteId,
          bayId: bay?.id ?? null,
          startTime: blackout.start,
          endTime: blackout.end,
          reason: blackout.reason,
          createdBy: adminId,
          createdAt: blackout.createdAt,
        });
        for (const target of bay ? [bay] : baysHere) schedule.reserve(target.id, blackout.start, blackout.end);
        data.audit.push({
          actorId: adminId,
          actorEmail: orgDef.slug === 'acme-logistics' ? 'admin@acme.test' : 'admin@harbour.test',
          actorRole: 'org_admin',
          action: 'blackout.created',
          resourceType: 'blackout',
          resourceId: id,
          orgId,
          siteId,
          details: { bay: blackout.bayName ?? 'All bays', reason: blackout.reason },
          createdAt: blackout.createdAt,
        });
      }
      placed.push(
        ...placeSiteBookings({ random, variety, now, orgId, siteId, orgDef, siteDef, bays: baysHere, tenantIds, schedule, vehicleSchedule }),
      );
    }
    for (const { row, sites } of restrictedTenants) {
      row.allowedSiteIds = sites.map((name) => data.sites.find((site) => site.orgId === orgId && site.name === name)!.id!);
    }
  }

  markOneOverstay(placed, nowMs);

  // TSR numbers follow creation order, as an external system would issue them.
  placed.sort((a, b) => a.row.createdAt.getTime() - b.row.createdAt.getTime());
  let tsrSequence = 101;
  for (const booking of placed) {
    const tsr = `TSR-${booking.row.createdAt.getUTCFullYear()}-${String(tsrSequence++).padStart(5, '0')}`;
    booking.row.tsrNumber = tsr;
    if (booking.row.tsrSystemType === 'servicenow') booking.row.tsrUrl = `https://servicenow.example.com/tsr/${tsr}`;
    if (booking.row.tsrSystemType === 'fmclarity') booking.row.tsrUrl = `https://fmclarity.example.com/requests/${tsr}`;
  }
  data.bookings = placed.map((p) => p.row);
  data.audit.push(...bookingAuditEntries(placed, nowMs, userIds));
  data.audit.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  return data;
}

// ---------------------------------------------------------------------------------------------

/** Intervals per bay that are already taken (bookings and blackouts), to avoid any overlap. */
class BaySchedule {
  private readonly taken = new Map<string, [number, number][]>();

  isFree(bayId: string, start: Date, end: Date): boolean {
    const s = start.getTime();
    const e = end.getTime();
    return !(this.taken.get(bayId) ?? []).some(([a, b]) => s < b && a < e);
  }

  reserve(bayId: string, start: Date, end: Date): void {
    const list = this.taken.get(bayId) ?? [];
    list.push([start.getTime(), end.getTime()]);
    this.taken.set(bayId, list);
  }
}

function demoBlackouts(siteDef: SiteDef, now: Date) {
  const tz = siteDef.timeZone;
  const firstWeekdayFrom = (offset: number) => {
    for (let o = offset; ; o++) {
      const day = localDay(now, tz, o);
      if (day.weekday !== 'sat' && day.weekday !== 'sun') return day;
    }
  };
  const out: { bayName: string | null; start: Date; end: Date; reason: string; createdAt: Date }[] = [];
  if (siteDef.name === 'North Terminal') {
    const future = firstWeekdayFrom(3);
    out.push({
      bayName: 'N-05',
      start: atLocal(future, 10 * 60, tz),
      end: atLocal(future, 14 * 60, tz),
      reason: 'Dock leveller maintenance',
      createdAt: new Date(now.getTime() - 2 * DAY),
    });
    const past = firstWeekdayFrom(-10);
    out.push({
      bayName: 'N-09',
      start: atLocal(past, 8 * 60, tz),
      end: atLocal(past, 12 * 60, tz),
      reason: 'Refrigeration unit repair',
      createdAt: new Date(now.getTime() - 12 * DAY),
    });
  }
  if (siteDef.name === 'South Terminal') {
    const day = firstWeekdayFrom(6);
    out.push({
      bayName: null,
      start: atLocal(day, 6 * 60, tz),
      end: atLocal(day, 9 * 60, tz),
      reason: 'Site maintenance: yard resurfacing, all bays closed',
      createdAt: new Date(now.getTime() - 3 * DAY),
    });
  }
  return out;
}

function placeSiteBookings(args: {
  random: Random;
  variety: Random;
  now: Date;
  orgId: string;
  siteId: string;
  orgDef: OrgDef;
  siteDef: SiteDef;
  bays: { id: string; def: BayDef }[];
  tenantIds: Map<string, string>;
  schedule: BaySchedule;
  /** The organization's vehicles across its sites: one vehicle is never in two places at once. */
  vehicleSchedule: BaySchedule;
}): PlacedBooking[] {
  const { random, variety, now, orgId, siteId, orgDef, siteDef, bays: siteBayList, tenantIds, schedule, vehicleSchedule } = args;
  const tz = siteDef.timeZone;
  const hours: OperatingHours = DEFAULT_OPERATING_HOURS;
  const fits = (vehicle: VehicleDef, bay: BayDef) =>
    vehicle.heightM <= bay.clearanceM &&
    vehicle.lengthM <= bay.lengthM &&
    vehicle.needs.every((need) => bay.features.includes(need));
  // Only tenants and vehicles that some bay here can take.
  const options = orgDef.tenants.flatMap((tenant) =>
    tenant.fleet
      .map((vehicle) => ({ tenant, vehicle, bays: siteBayList.filter((bay) => fits(vehicle, bay.def)) }))
      .filter((option) => option.bays.length > 0),
  );
  const out: PlacedBooking[] = [];

  /** Places one booking on a free compatible bay, at the 30-minute slot `chooseSlot` returns. */
  const place = (
    day: LocalDay,
    offset: number,
    openMin: number,
    closeMin: number,
    chooseSlot: (lastSlot: number) => number,
  ) => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const option = random.weighted(options.map((o) => [o, o.tenant.weight / o.tenant.fleet.length] as const));
      const bay = random.pick(option.bays);
      const duration = random.pick(DURATIONS[option.vehicle.type]);
      const lastSlot = Math.floor((closeMin - openMin - duration) / 30);
      if (lastSlot < 0) continue;
      const slot = chooseSlot(lastSlot);
      if (slot < 0) continue;
      const start = atLocal(day, openMin + 30 * slot, tz);
      const end = new Date(start.getTime() + duration * MINUTE);
      // One vehicle is never booked twice at overlapping times (bookings_vehicle_no_overlap).
      const vehicleKey = option.vehicle.registration;
      if (!schedule.isFree(bay.id, start, end) || !vehicleSchedule.isFree(vehicleKey, start, end)) continue;
      schedule.reserve(bay.id, start, end);
      vehicleSchedule.reserve(vehicleKey, start, end);
      out.push({
        dayOffset: offset,
        row: buildBookingRow({
          random,
          variety,
          now,
          orgId,
          siteId,
          bayId: bay.id,
          tenantId: tenantIds.get(option.tenant.name)!,
          tenant: option.tenant,
          vehicle: option.vehicle,
          start,
          end,
          duration,
          dayOffset: offset,
        }),
      });
      return;
    }
  };

  for (let offset = -PAST_DAYS; offset <= FUTURE_DAYS; offset++) {
    const day = localDay(now, tz, offset);
    const open = hours[day.weekday][0];
    if (!open) continue;
    const openMin = toMinutes(open.open);
    const closeMin = toMinutes(open.close);
    const isWeekend = day.weekday === 'sat' || day.weekday === 'sun';
    const target = Math.round(
      siteDef.bookingsPerWeekday * (isWeekend ? 0.4 : 1) * (offset === 0 ? 1.5 : 1) * (0.75 + random.next() * 0.5),
    );
    // Busier in the morning, as docks are: most requests fall in the first 60 % of the day.
    const anyTime = (slots: number) => (random.chance(0.7) ? random.int(0, Math.floor(slots * 0.6)) : random.int(0, slots));
    for (let n = 0; n < target; n++) place(day, offset, openMin, closeMin, anyTime);
    if (offset === 0) {
      // Today also gets vehicles around now, so the live board has arrivals, vehicles at bays and
      // the next ones due whenever the demo is opened during operating hours.
      const nowMin = Math.floor((now.getTime() - atLocal(day, 0, tz).getTime()) / MINUTE);
      const nearNow = (slots: number) => {
        const slot = Math.floor((nowMin - openMin) / 30) + random.int(-3, 2);
        return slot >= 0 && slot <= slots ? slot : -1;
      };
      const extra = Math.ceil(siteBayList.length / 3);
      for (let n = 0; n < extra; n++) place(day, offset, openMin, closeMin, nearNow);
    }
  }
  return out;
}

function statusFor(random: Random, startMs: number, endMs: number, nowMs: number, dayOffset: number): BookingStatus {
  if (endMs <= nowMs) {
    return random.weighted<BookingStatus>([
      ['completed', 78],
      ['no_show', 7],
      ['cancelled', 7],
      ['declined', 8],
    ]);
  }
  if (startMs <= nowMs) return random.chance(0.7) ? 'in_progress' : 'checked_in';
  if (startMs - nowMs <= 30 * MINUTE) return random.chance(0.5) ? 'checked_in' : 'approved';
  if (dayOffset === 0) {
    return random.weighted<BookingStatus>([
      ['approved', 65],
      ['pending', 25],
      ['cancelled', 5],
      ['declined', 5],
    ]);
  }
  return random.weighted<BookingStatus>(
    dayOffset <= 3
      ? [
          ['approved', 60],
          ['pending', 30],
          ['cancelled', 5],
          ['declined', 5],
        ]
      : [
          ['approved', 40],
          ['pending', 50],
          ['cancelled', 5],
          ['declined', 5],
        ],
  );
}

/** Where a demo booking came from: mostly the portal, some booked by the admin, a few walk-ins at the gate. */
function demoSource(variety: Random, status: BookingStatus): string {
  const arrived = reachableStatuses('checked_in').includes(status);
  if (arrived && variety.chance(0.12)) return 'gate';
  return variety.chance(0.7) ? 'portal' : 'admin';
}

function buildBookingRow(args: {
  random: Random;
  /** Punctuality and source: a stream of their own (see buildDemoData). */
  variety: Random;
  now: Date;
  orgId: string;
  siteId: string;
  bayId: string;
  tenantId: string;
  tenant: TenantDef;
  vehicle: VehicleDef;
  start: Date;
  end: Date;
  duration: number;
  dayOffset: number;
}): PlacedBooking['row'] {
  const { random, variety, now, start, end, duration, tenant, vehicle } = args;
  const nowMs = now.getTime();
  const startMs = start.getTime();
  const status = statusFor(random, startMs, end.getTime(), nowMs, args.dayOffset);
  const at = (ms: number) => new Date(ms);

  // Requested between 6 hours and 10 days ahead, and never in the future.
  let createdMs = startMs - random.int(6 * 60, 10 * 24 * 60) * MINUTE;
  if (createdMs > nowMs - 10 * MINUTE) createdMs = nowMs - random.int(10, 240) * MINUTE;
  // Reviewed within the 2-hour promise, before the slot and before now.
  const reviewedMs = Math.max(createdMs + MINUTE, Math.min(createdMs + random.int(5, 110) * MINUTE, startMs, nowMs - MINUTE));
  const times: {
    approvedAt?: Date;
    declinedAt?: Date;
    cancelledAt?: Date;
    checkedInAt?: Date;
    startedAt?: Date;
    completedAt?: Date;
    noShowAt?: Date;
  } = {};
  let statusReason: string | null = null;

  // Most arrive within the booking window (±30 min); some early (the gate opens 60 min before the
  // start) and some late (until the no-show cut-off, start + 45 min), as at a real dock.
  const arrival = () => {
    const onTime = random.int(-20, 25);
    const roll = variety.next();
    const offset = roll < 0.12 ? variety.int(-58, -32) : roll < 0.26 ? variety.int(32, 44) : onTime;
    return startMs + offset * MINUTE;
  };
  switch (status) {
    case 'pending':
      break;
    case 'approved':
      times.approvedAt = at(reviewedMs);
      break;
    case 'declined':
      times.declinedAt = at(reviewedMs);
      statusReason = random.pick(DECLINE_REASONS);
      break;
    case 'cancelled': {
      if (random.chance(0.5)) times.approvedAt = at(reviewedMs);
      const latest = Math.min(startMs, nowMs);
      times.cancelledAt = at(reviewedMs + Math.floor((latest - reviewedMs) * random.next()));
      statusReason = 'Cancelled by the haulier';
      break;
    }
    case 'no_show':
      times.approvedAt = at(reviewedMs);
      times.noShowAt = at(startMs + BOOKING_WINDOW_MIN * MINUTE);
      break;
    case 'checked_in': {
      times.approvedAt = at(reviewedMs);
      const checkedIn = Math.min(arrival(), nowMs - random.int(1, 10) * MINUTE);
      times.checkedInAt = at(Math.max(checkedIn, reviewedMs + MINUTE));
      break;
    }
    case 'in_progress':
    case 'completed':
    case 'overstay': {
      times.approvedAt = at(reviewedMs);
      const chain = [arrival()];
      chain.push(chain[0] + random.int(2, 12) * MINUTE);
      if (status === 'completed') chain.push(chain[1] + (duration + random.int(-10, 30)) * MINUTE);
      // Nothing happens after now; keep the chain in order, a minute apart at least.
      chain[chain.length - 1] = Math.min(chain[chain.length - 1], nowMs - MINUTE);
      for (let i = chain.length - 2; i >= 0; i--) chain[i] = Math.min(chain[i], chain[i + 1] - MINUTE);
      times.checkedInAt = at(Math.max(chain[0], reviewedMs + MINUTE));
      times.startedAt = at(Math.max(chain[1], times.checkedInAt.getTime() + MINUTE));
      if (chain[2] !== undefined) times.completedAt = at(Math.max(chain[2], times.startedAt.getTime() + MINUTE));
      break;
    }
  }
  const updatedMs = Math.max(createdMs, ...Object.values(times).map((d) => d.getTime()));
  const bookingType = random.weighted<BookingType>([
    ['delivery', 65],
    ['pickup', 25],
    ['both', 10],
  ]);
  const tsrSystemType = random.weighted<TsrSystemType>([
    ['servicenow', 50],
    ['fmclarity', 35],
    ['other', 15],
  ]);
  return {
    id: randomUUID(),
    orgId: args.orgId,
    siteId: args.siteId,
    bayId: args.bayId,
    tenantId: args.tenantId,
    tsrNumber: '', // numbered in creation order once every booking exists
    tsrSystemType,
    tsrUrl: null,
    tenantName: tenant.name,
    contactName: tenant.contactName,
    tenantEmail: tenant.email,
    tenantPhone: tenant.phone,
    bookingType,
    startTime: start,
    endTime: end,
    windowStart: start,
    windowEnd: end,
    vehicleType: vehicle.type,
    vehicleRegistration: vehicle.registration,
    vehicleHeightMm: Math.round(vehicle.heightM * 1000),
    vehicleLengthMm: Math.round(vehicle.lengthM * 1000),
    vehicleHeightM: vehicle.heightM,
    vehicleLengthM: vehicle.lengthM,
    specialAccessNeeds: vehicle.needs.length > 0 ? [...vehicle.needs] : null,
    goodsDescription: random.pick(tenant.goods),
    expectedDurationMin: duration,
    driverInductionCompleted: true,
    notes: random.chance(0.2) ? random.pick(NOTES) : null,
    status,
    source: demoSource(variety, status),
    statusReason,
    approvedAt: times.approvedAt ?? null,
    declinedAt: times.declinedAt ?? null,
    cancelledAt: times.cancelledAt ?? null,
    checkedInAt: times.checkedInAt ?? null,
    startedAt: times.startedAt ?? null,
    completedAt: times.completedAt ?? null,
    noShowAt: times.noShowAt ?? null,
    createdAt: at(createdMs),
    updatedAt: at(updatedMs),
  };
}

/**
 * One vehicle still at its bay well past its end (the overstay state of the live board), chosen
 * among today's finished bookings whose bay stays free until a little after now.
 */
function markOneOverstay(placed: PlacedBooking[], nowMs: number): void {
  const released = new Set<string>(RELEASED_BOOKING_STATUSES);
  const candidate = placed.find(({ row, dayOffset }) => {
    const endMs = row.endTime.getTime();
    if (dayOffset !== 0 || row.status !== 'completed') return false;
    if (endMs > nowMs - (OVERSTAY_THRESHOLD_MIN + 5) * MINUTE || endMs < nowMs - 120 * MINUTE) return false;
    return !placed.some(
      (other) =>
        other.row.id !== row.id &&
        other.row.bayId === row.bayId &&
        !released.has(other.row.status!) &&
        other.row.startTime.getTime() < nowMs + 15 * MINUTE &&
        other.row.endTime.getTime() > endMs,
    );
  });
  if (!candidate) return;
  candidate.row.status = 'overstay';
  candidate.row.completedAt = null;
  candidate.row.updatedAt = new Date(candidate.row.endTime.getTime() + OVERSTAY_THRESHOLD_MIN * MINUTE);
}

/** The latest portal requests, an approval and a check-in, as the audit trail would hold them. */
function bookingAuditEntries(placed: PlacedBooking[], nowMs: number, userIds: Map<string, string>) {
  const entries: (typeof auditLog.$inferInsert)[] = [];
  const details = (row: PlacedBooking['row'], status: string) => ({
    tsr_number: row.tsrNumber,
    tenant_name: row.tenantName,
    vehicle_type: row.vehicleType,
    status,
    source: row.source,
  });
  const acmeAdmin = userIds.get('admin@acme.test')!;
  const acmeDock = userIds.get('dock@acme.test')!;
  const recent = placed.filter((p) => p.row.createdAt.getTime() > nowMs - 3 * DAY).slice(-4);
  for (const { row } of recent) {
    entries.push({
      actorId: null,
      actorEmail: null,
      actorRole: 'public',
      action: 'booking.created',
      resourceType: 'booking',
      resourceId: row.id,
      orgId: row.orgId,
      siteId: row.siteId,
      details: details(row, 'pending'),
      createdAt: row.createdAt,
    });
  }
  const acmeOrgId = placed.find((p) => p.row.tenantName === 'Coastal Freight Co')?.row.orgId;
  const approved = placed
    .filter((p) => p.row.orgId === acmeOrgId && p.row.status === 'approved' && p.row.approvedAt)
    .at(-1);
  if (approved) {
    entries.push({
      actorId: acmeAdmin,
      actorEmail: 'admin@acme.test',
      actorRole: 'org_admin',
      action: 'booking.approved',
      resourceType: 'booking',
      resourceId: approved.row.id,
      orgId: approved.row.orgId,
      siteId: approved.row.siteId,
      details: details(approved.row, 'approved'),
      createdAt: approved.row.approvedAt!,
    });
  }
  const arrived = placed
    .filter((p) => p.row.orgId === acmeOrgId && (p.row.status === 'checked_in' || p.row.status === 'in_progress'))
    .sort((a, b) => a.row.checkedInAt!.getTime() - b.row.checkedInAt!.getTime())
    .at(-1);
  if (arrived) {
    entries.push({
      actorId: acmeDock,
      actorEmail: 'dock@acme.test',
      actorRole: 'dockmaster',
      action: 'booking.checked_in',
      resourceType: 'booking',
      resourceId: arrived.row.id,
      orgId: arrived.row.orgId,
      siteId: arrived.row.siteId,
      details: { ...details(arrived.row, 'checked_in'), vehicle_registration: arrived.row.vehicleRegistration },
      createdAt: arrived.row.checkedInAt!,
    });
  }
  const overstay = placed.find((p) => p.row.status === 'overstay');
  if (overstay) {
    entries.push({
      actorId: null,
      actorEmail: null,
      actorRole: 'system',
      action: 'booking.overstay_alert',
      resourceType: 'booking',
      resourceId: overstay.row.id,
      orgId: overstay.row.orgId,
      siteId: overstay.row.siteId,
      details: { ...details(overstay.row, 'overstay'), minutes_over: OVERSTAY_THRESHOLD_MIN },
      createdAt: overstay.row.updatedAt as Date,
    });
  }
  return entries;
}
