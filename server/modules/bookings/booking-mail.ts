import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { createEvent, type DateArray } from 'ics';
import { BOOKING_TYPE_LABELS, VEHICLE_TYPE_LABELS, type BookingType, type VehicleType } from '../../../domain/enums';
import type { MailMessage } from '../../mail/mailer';

export type BookingMailFacts = {
  id: string;
  reference: string;
  status: string;
  orgName: string;
  siteName: string;
  siteAddress: string | null;
  bayName: string;
  timeZone: string;
  startTime: Date;
  endTime: Date;
  tenantName: string;
  contactName: string | null;
  tenantEmail: string;
  bookingType: string;
  vehicleType: string;
  vehicleRegistration: string;
  documents: number;
};

/** 'Mon 23 Nov 2026, 09:30–10:30 (Australia/Sydney)' in the site's own time zone. */
export function formatSlot(start: Date, end: Date, timeZone: string): string {
  const s = new TZDate(start, timeZone);
  const e = new TZDate(end, timeZone);
  return `${format(s, 'EEE d MMM yyyy, HH:mm')}–${format(e, 'HH:mm')} (${timeZone})`;
}

const utcArray = (d: Date): DateArray => [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()];

/** An iCalendar event for the booking, in UTC (every calendar shows it in its own zone). */
export function bookingIcs(facts: BookingMailFacts, manageUrl: string): string {
  const { error, value } = createEvent({
    uid: `${facts.id}@baywise`,
    title: `Dock booking ${facts.reference} – ${facts.siteName} ${facts.bayName}`,
    description: `${BOOKING_TYPE_LABELS[facts.bookingType as BookingType] ?? facts.bookingType} at ${facts.orgName}, ${facts.siteName}, bay ${facts.bayName}.\nVehicle: ${facts.vehicleRegistration}.\nManage: ${manageUrl}`,
    location: [facts.siteName, facts.siteAddress].filter(Boolean).join(', '),
    start: utcArray(facts.startTime),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: utcArray(facts.endTime),
    endInputType: 'utc',
    endOutputType: 'utc',
    status: 'TENTATIVE',
    url: manageUrl,
    productId: 'baywise/booking',
  });
  if (error || !value) throw error ?? new Error('Could not build the calendar event');
  return value;
}

const WHAT_TO_BRING = [
  'Your TSR number and this booking reference',
  'Consignment documentation',
  'Driver induction certificate',
  'Vehicle registration matching this booking',
];

/** The haulier's confirmation of a new request, with the .ics and the manage link. */
export function renderBookingConfirmation(facts: BookingMailFacts, manageUrl: string): MailMessage {
  const when = formatSlot(facts.startTime, facts.endTime, facts.timeZone);
  const text = [
    `Hello ${facts.contactName || facts.tenantName},`,
    '',
    `We have received your dock booking request. Reference: ${facts.reference}`,
    '',
    `Status: pending review (the operations team reviews requests within 2 hours during business hours)`,
    `Organization: ${facts.orgName}`,
    `Site: ${facts.siteName}${facts.siteAddress ? `, ${facts.siteAddress}` : ''}`,
    `Bay: ${facts.bayName}`,
    `When: ${when}`,
    `Type: ${BOOKING_TYPE_LABELS[facts.bookingType as BookingType] ?? facts.bookingType}`,
    `Vehicle: ${VEHICLE_TYPE_LABELS[facts.vehicleType as VehicleType] ?? facts.vehicleType}, ${facts.vehicleRegistration}`,
    `Documents received: ${facts.documents}`,
    '',
    'What to bring:',
    ...WHAT_TO_BRING.map((item) => `- ${item}`),
    '',
    `See the status, cancel or move this booking at any time:`,
    manageUrl,
    '',
    'Keep this link private: anyone with it can change the booking.',
  ].join('\n');
  return {
    to: facts.tenantEmail,
    subject: `Booking request received – ${facts.reference}`,
    text,
    attachments: [{ filename: 'booking.ics', content: bookingIcs(facts, manageUrl), contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }],
  };
}

/** The organization's admins hear of a new request waiting for review. */
export function renderNewRequestToAdmins(publicUrl: string, facts: BookingMailFacts, adminEmails: string[]): MailMessage | null {
  if (adminEmails.length === 0) return null;
  return {
    to: adminEmails,
    subject: `New booking request ${facts.reference} – ${facts.siteName}`,
    text: [
      `A new booking request is waiting for review at ${facts.orgName}.`,
      '',
      `Reference: ${facts.reference}`,
      `Company: ${facts.tenantName} (${facts.tenantEmail})`,
      `Site and bay: ${facts.siteName}, ${facts.bayName}`,
      `When: ${formatSlot(facts.startTime, facts.endTime, facts.timeZone)}`,
      `Vehicle: ${VEHICLE_TYPE_LABELS[facts.vehicleType as VehicleType] ?? facts.vehicleType}, ${facts.vehicleRegistration}`,
      `Documents: ${facts.documents}`,
      '',
      `Review it in Baywise: ${publicUrl}/org/bookings`,
    ].join('\n'),
  };
}

export type BookingChange = 'cancelled' | 'moved';

/** The haulier hears that their booking was cancelled or moved. */
export function renderBookingChanged(facts: BookingMailFacts, manageUrl: string | null, change: BookingChange): MailMessage {
  const when = formatSlot(facts.startTime, facts.endTime, facts.timeZone);
  return {
    to: facts.tenantEmail,
    subject: change === 'cancelled' ? `Booking cancelled – ${facts.reference}` : `Booking moved – ${facts.reference}`,
    text: [
      `Hello ${facts.contactName || facts.tenantName},`,
      '',
      change === 'cancelled'
        ? `Your booking ${facts.reference} at ${facts.siteName} (${when}) is cancelled.`
        : `Your booking ${facts.reference} is moved to ${when} at ${facts.siteName}, bay ${facts.bayName}. It is pending review again.`,
      ...(manageUrl ? ['', 'Manage the booking:', manageUrl] : []),
    ].join('\n'),
    attachments:
      change === 'moved' && manageUrl
        ? [{ filename: 'booking.ics', content: bookingIcs(facts, manageUrl), contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }]
        : undefined,
  };
}
