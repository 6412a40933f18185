// Enumerations of spec §3 and the roles of §6. Values are what the API and database carry;
// labels are what people read.

export const PLATFORM_ROLES = ['super_admin', 'platform_owner', 'platform_support'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

export const ORG_ROLES = ['org_admin', 'dockmaster', 'security'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

export type UserRole = PlatformRole | OrgRole;

export function isPlatformRole(role: string | null | undefined): role is PlatformRole {
  return !!role && (PLATFORM_ROLES as readonly string[]).includes(role);
}

/** Where a signed-in user lands after the admin sign-in (spec §2). */
export function homePathForRole(role: string | null | undefined): string {
  if (isPlatformRole(role)) return '/superadmin/dashboard';
  if (role === 'org_admin' || role === 'dockmaster') return '/org/dashboard';
  // Security staff work at one site's gate: the dock sign-in asks which (decision 012), then
  // lands them on /dockmaster/dashboard.
  if (role === 'security') return '/dockmaster';
  return '/';
}

export const ORGANIZATION_STATUSES = ['active', 'suspended', 'cancelled', 'trial'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

export const VEHICLE_TYPES = ['car', 'van', 'rigid', 'semi', 'b-double', 'other'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
export const VEHICLE_TYPE_LABELS: Record<VehicleType, string> = {
  car: 'Car',
  van: 'Van',
  rigid: 'Rigid Truck',
  semi: 'Semi-trailer',
  'b-double': 'B-Double',
  other: 'Other',
};
export function isVehicleType(value: string): value is VehicleType {
  return (VEHICLE_TYPES as readonly string[]).includes(value);
}

export const SPECIAL_ACCESS_NEEDS = ['oversize', 'hazardous', 'refrigerated', 'escort'] as const;
export type SpecialAccessNeed = (typeof SPECIAL_ACCESS_NEEDS)[number];
export const SPECIAL_ACCESS_LABELS: Record<SpecialAccessNeed, string> = {
  oversize: 'Oversize Load',
  hazardous: 'Hazardous Materials',
  refrigerated: 'Refrigerated',
  escort: 'Escort Required',
};
export function isSpecialAccessNeed(value: string): value is SpecialAccessNeed {
  return (SPECIAL_ACCESS_NEEDS as readonly string[]).includes(value);
}

/** Bay features match special access needs one to one. */
export const BAY_FEATURES = SPECIAL_ACCESS_NEEDS;
export type BayFeature = SpecialAccessNeed;

export const BOOKING_TYPES = ['delivery', 'pickup', 'both'] as const;
export type BookingType = (typeof BOOKING_TYPES)[number];
export const BOOKING_TYPE_LABELS: Record<BookingType, string> = {
  delivery: 'Delivery',
  pickup: 'Pickup',
  both: 'Both',
};

export const TSR_SYSTEM_TYPES = ['servicenow', 'fmclarity', 'other'] as const;
export type TsrSystemType = (typeof TSR_SYSTEM_TYPES)[number];
export const TSR_SYSTEM_LABELS: Record<TsrSystemType, string> = {
  servicenow: 'ServiceNow',
  fmclarity: 'FMClarity',
  other: 'Other',
};

export const BOOKING_STATUSES = [
  'pending',
  'approved',
  'declined',
  'cancelled',
  'checked_in',
  'in_progress',
  'completed',
  'overstay',
  'no_show',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_SOURCES = ['portal', 'admin', 'gate', 'ssc', 'demo', 'standing'] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];
/** How a booking came in, as staff read it (the booking drawer). */
export const BOOKING_SOURCE_LABELS: Record<BookingSource, string> = {
  portal: 'Booking portal',
  admin: 'Added by staff',
  gate: 'Gate walk-in',
  ssc: 'Carrier API (SSC)',
  demo: 'Demo data',
  standing: 'Standing booking',
};

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
