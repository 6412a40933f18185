import type { Weekday } from './enums';

// Business constants of spec §9.

export const SLOT_INTERVAL_MIN = 30;
export const DEFAULT_DURATION_MIN = 30;
export const MIN_DURATION_MIN = 15;
export const MAX_DURATION_MIN = 480;
export const MIN_ADVANCE_MIN = 120;
export const BOOKING_WINDOW_MIN = 30;
/**
 * An arrival within this many minutes of the booked start, either side, is on time: the reports'
 * punctuality and the gate's "LATE" (an approved vehicle not in yet once the window has passed).
 */
export const ON_TIME_WINDOW_MIN = BOOKING_WINDOW_MIN;
export const OVERSTAY_THRESHOLD_MIN = 30;
export const REVIEW_PROMISE_HOURS = 2;

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES = 10;
export const ALLOWED_FILE_EXTENSIONS = ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png'] as const;
export const DOCUMENTS_BUCKET = 'booking-documents';
/** Where organization logos are stored. */
export const LOGO_BUCKET = 'org-logos';

/** One opening window of a day, local wall-clock 'HH:mm' (close may be '24:00'). */
export type HoursWindow = { open: string; close: string };
/** A weekday's opening windows in time order (a lunch break splits a day in two); empty: closed. */
export type DayHours = HoursWindow[];
export type OperatingHours = Record<Weekday, DayHours>;

/** Spec §9: Mon-Fri 06:00-22:00, Sat 08:00-18:00, Sun 10:00-16:00. */
export const DEFAULT_OPERATING_HOURS: OperatingHours = {
  mon: [{ open: '06:00', close: '22:00' }],
  tue: [{ open: '06:00', close: '22:00' }],
  wed: [{ open: '06:00', close: '22:00' }],
  thu: [{ open: '06:00', close: '22:00' }],
  fri: [{ open: '06:00', close: '22:00' }],
  sat: [{ open: '08:00', close: '18:00' }],
  sun: [{ open: '10:00', close: '16:00' }],
};

export const STATS_PERIODS = [7, 30] as const;
export const DEFAULT_STATS_PERIOD = 30;
export const ALERTS_WINDOW_HOURS = 24;
export const DASHBOARD_ORGANIZATIONS = 3;
export const DASHBOARD_AUDIT_ENTRIES = 5;
export const AUDIT_DEFAULT_LIMIT = 20;

export const STORAGE_KEYS = {
  session: 'baywise.auth.session',
  selectedOrg: 'baywise.selectedOrganization',
  selectedSite: 'baywise.selectedSite',
} as const;

export const DEMO_PASSWORD = 'Baywise-demo-1';
export const DEMO_ACCOUNTS = [
  { email: 'super@baywise.test', role: 'super_admin', label: 'Super admin' },
  { email: 'admin@acme.test', role: 'org_admin', label: 'Acme Logistics admin' },
  { email: 'dock@acme.test', role: 'dockmaster', label: 'Acme dockmaster', employeeId: 'D1001' },
  { email: 'security@acme.test', role: 'security', label: 'Acme security', employeeId: 'S1001' },
  { email: 'admin@harbour.test', role: 'org_admin', label: 'Harbour Foods admin' },
] as const;
