import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { createEvent, type DateArray } from 'ics';
import { BOOKING_TYPE_LABELS, VEHICLE_TYPE_LABELS, type BookingType, type VehicleType } from '../../../domain/enums';
import type { MailAttachment, MailMessage } from '../../mail/mailer';
import type { ArrivalMark } from './arrival-qr';

export type BookingMailFacts = {
  id: string;
  reference: string;
  status: string;
  /** The booking's version (bumped by every write): the calendar entry's SEQUENCE. */
  version: number;
  /** The address the site's mail comes from: the ORGANIZER of the calendar entry. */
  organizerEmail?: string;
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

/** The e-mail address inside a From header ('Baywise <no-reply@x>' → 'no-reply@x'). */
export function addressOf(from: string): string {
  const m = /<([^>]+)>/.exec(from);
  return (m ? m[1]! : from).trim();
}

/** How a calendar attachment is meant: the booking (new or changed), or its cancellation. */
export type IcsMethod = 'REQUEST' | 'CANCEL';

/**
 * An iCalendar event for the booking, in UTC (every calendar shows it in its own zone). One UID per
 * booking and the booking's version as SEQUENCE, so a calendar replaces the entry on every change:
 * REQUEST carries CONFIRMED once the site has approved it, TENTATIVE while it waits for review;
 * CANCEL carries STATUS:CANCELLED and the calendar drops the slot (RFC 5546).
 */
export function bookingIcs(facts: BookingMailFacts, manageUrl: string | null, method: IcsMethod = 'REQUEST'): string {
  const { error, value } = createEvent({
    uid: bookingIcsUid(facts.id),
    sequence: facts.version,
    method,
    title: `Dock booking ${facts.reference} – ${facts.siteName} ${facts.bayName}`,
    description: `${BOOKING_TYPE_LABELS[facts.bookingType as BookingType] ?? facts.bookingType} at ${facts.orgName}, ${facts.siteName}, bay ${facts.bayName}.\nVehicle: ${facts.vehicleRegistration}.${manageUrl ? `\nManage: ${manageUrl}` : ''}`,
    location: [facts.siteName, facts.siteAddress].filter(Boolean).join(', '),
    start: utcArray(facts.startTime),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: utcArray(facts.endTime),
    endInputType: 'utc',
    endOutputType: 'utc',
    status: method === 'CANCEL' ? 'CANCELLED' : facts.status === 'pending' ? 'TENTATIVE' : 'CONFIRMED',
    ...(manageUrl ? { url: manageUrl } : {}),
    organizer: { name: facts.orgName, email: facts.organizerEmail ?? 'no-reply@baywise.test' },
    attendees: [{ name: facts.contactName || facts.tenantName, email: facts.tenantEmail, rsvp: false, role: 'REQ-PARTICIPANT' }],
    productId: 'baywise/booking',
  });
  if (error || !value) throw error ?? new Error('Could not build the calendar event');
  return value;
}

export const bookingIcsUid = (bookingId: string) => `${bookingId}@baywise`;

const icsAttachment = (facts: BookingMailFacts, manageUrl: string | null, method: IcsMethod) => ({
  filename: method === 'CANCEL' ? 'cancel.ics' : 'booking.ics',
  content: bookingIcs(facts, manageUrl, method),
  contentType: `text/calendar; charset=utf-8; method=${method}`,
});

// ---- The arrival code and the HTML part --------------------------------------------------------

/** Where a message's lines carry the arrival code: its text lines, or the code and QR in HTML. */
const ARRIVAL_SLOT = Symbol('arrival');
type MailLine = string | symbol;

function arrivalTextLines(arrival: ArrivalMark): string[] {
  return [`Arrival code: ${arrival.code}`, 'At the gate, scan the QR code in this e-mail at the kiosk or type the code.'];
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A line as HTML: escaped, a link as a link. */
const htmlLine = (line: string) => (/^https?:\/\/\S+$/.test(line) ? `<a href="${escapeHtml(line)}">${escapeHtml(line)}</a>` : escapeHtml(line));

function arrivalHtml(arrival: ArrivalMark): string {
  return [
    '<div style="margin:16px 0;padding:12px 16px;border:1px solid #ccd;border-radius:8px;display:inline-block">',
    `<p style="margin:0 0 8px">Arrival code: <strong style="font-family:monospace;font-size:22px;letter-spacing:2px">${escapeHtml(arrival.code)}</strong></p>`,
    `<img src="cid:${escapeHtml(arrival.qr.cid ?? '')}" width="200" height="200" alt="QR code of arrival code ${escapeHtml(arrival.code)}">`,
    '<p style="margin:8px 0 0">At the gate, scan this QR code at the kiosk or type the code.</p>',
    '</div>',
  ].join('');
}

/** The message's text and HTML parts from one list of lines (blank lines part paragraphs). */
function textAndHtml(lines: MailLine[], arrival: ArrivalMark | null): { text: string; html?: string; inline: MailAttachment[] } {
  const text = lines.flatMap((line) => (typeof line !== 'string' ? (arrival ? arrivalTextLines(arrival) : []) : [line])).join('\n');
  if (!arrival) return { text, inline: [] };
  const blocks: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push(`<p>${paragraph.join('<br>')}</p>`);
    paragraph = [];
  };
  for (const line of lines) {
    if (typeof line !== 'string') {
      flush();
      blocks.push(arrivalHtml(arrival));
    } else if (line === '') flush();
    else paragraph.push(htmlLine(line));
  }
  flush();
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.45;color:#1a1b1e">${blocks.join('\n')}</body></html>`;
  return { text, html, inline: [arrival.qr] };
}

const WHAT_TO_BRING = [
  'Your TSR number and this booking reference',
  'Consignment documentation',
  'Driver induction certificate',
  'Vehicle registration matching this booking',
];

/** The haulier's confirmation of a new request, with the .ics, the manage link and the arrival code. */
export function renderBookingConfirmation(facts: BookingMailFacts, manageUrl: string, arrival: ArrivalMark | null = null): MailMessage {
  const when = formatSlot(facts.startTime, facts.endTime, facts.timeZone);
  const lines: MailLine[] = [
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
    ...(arrival ? [ARRIVAL_SLOT, ''] : []),
    `See the status, cancel or move this booking at any time:`,
    manageUrl,
    '',
    'Keep this link private: anyone with it can change the booking.',
  ];
  const { text, html, inline } = textAndHtml(lines, arrival);
  return {
    to: facts.tenantEmail,
    subject: `Booking request received – ${facts.reference}`,
    text,
    ...(html ? { html } : {}),
    attachments: [icsAttachment(facts, manageUrl, 'REQUEST'), ...inline],
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

/** What happened to a booking, as the haulier is told: by themselves (link) or by the site. */
export const BOOKING_CHANGES = ['cancelled', 'moved', 'approved', 'declined', 'cancelled_by_site', 'moved_by_site', 'no_show', 'site_closed'] as const;
export type BookingChange = (typeof BOOKING_CHANGES)[number];

const CHANGE_SUBJECTS: Record<BookingChange, string> = {
  cancelled: 'Booking cancelled',
  moved: 'Booking moved',
  approved: 'Booking approved',
  declined: 'Booking declined',
  cancelled_by_site: 'Booking cancelled by the site',
  moved_by_site: 'Booking rescheduled by the site',
  no_show: 'Missed booking',
  site_closed: 'Site closed at your booking time',
};

function changeSentence(facts: BookingMailFacts, change: BookingChange, when: string): string {
  switch (change) {
    case 'cancelled':
      return `Your booking ${facts.reference} at ${facts.siteName} (${when}) is cancelled.`;
    case 'moved':
      return `Your booking ${facts.reference} is moved to ${when} at ${facts.siteName}, bay ${facts.bayName}. It is pending review again.`;
    case 'approved':
      return `Your booking ${facts.reference} is approved: ${when} at ${facts.siteName}, bay ${facts.bayName}. Please arrive on time and check in at the gate.`;
    case 'declined':
      return `Your booking request ${facts.reference} for ${when} at ${facts.siteName} was declined.`;
    case 'cancelled_by_site':
      return `${facts.orgName} cancelled your booking ${facts.reference} at ${facts.siteName} (${when}).`;
    case 'moved_by_site':
      return `${facts.orgName} moved your booking ${facts.reference} to ${when} at ${facts.siteName}, bay ${facts.bayName}.`;
    case 'site_closed':
      return `${facts.orgName} has closed ${facts.siteName} at the time of your booking ${facts.reference} (${when}), and no compatible bay at another site is free then. Your booking is unchanged: please move or cancel it, or contact ${facts.siteName}.`;
    case 'no_show':
      return `Your booking ${facts.reference} at ${facts.siteName} (${when}) was closed as a no-show: the vehicle did not arrive within the booking window. To come another time, please request a new booking.`;
  }
}

/**
 * The haulier hears what happened to their booking, with the reason when the site gave one. An
 * approval carries the arrival code (given as `arrival`; other changes ignore it).
 */
export function renderBookingChanged(
  facts: BookingMailFacts,
  manageUrl: string | null,
  change: BookingChange,
  reason: string | null = null,
  arrival: ArrivalMark | null = null,
): MailMessage {
  const when = formatSlot(facts.startTime, facts.endTime, facts.timeZone);
  const update = (change === 'moved' || change === 'moved_by_site' || change === 'approved') && manageUrl;
  // The haulier's calendar drops the slot: the site or the haulier cancelled it, or it was declined.
  const cancel = change === 'cancelled' || change === 'cancelled_by_site' || change === 'declined';
  const withArrival = change === 'approved' ? arrival : null;
  const { text, html, inline } = textAndHtml(
    [
      `Hello ${facts.contactName || facts.tenantName},`,
      '',
      changeSentence(facts, change, when),
      ...(reason ? ['', `Reason: ${reason}`] : []),
      ...(withArrival ? ['', ARRIVAL_SLOT] : []),
      ...(manageUrl && change !== 'declined' ? ['', 'Manage the booking:', manageUrl] : []),
    ],
    withArrival,
  );
  const calendar = update ? [icsAttachment(facts, manageUrl, 'REQUEST')] : cancel ? [icsAttachment(facts, null, 'CANCEL')] : [];
  const attachments = [...calendar, ...inline];
  return {
    to: facts.tenantEmail,
    subject: `${CHANGE_SUBJECTS[change]} – ${facts.reference}`,
    text,
    ...(html ? { html } : {}),
    attachments: attachments.length > 0 ? attachments : undefined,
  };
}

/** The query that opens the manage page on its "Running late?" form. */
export const runningLateUrl = (manageUrl: string) => `${manageUrl}?late=1`;

/** 'in 2 hours', 'tomorrow' … as a reminder's subject says how soon. */
function howSoon(hoursBefore: number): string {
  if (hoursBefore === 24) return 'tomorrow';
  if (hoursBefore % 24 === 0) return `in ${hoursBefore / 24} days`;
  return hoursBefore === 1 ? 'in 1 hour' : `in ${hoursBefore} hours`;
}

/**
 * A reminder before the slot (the job runner's, server/jobs/booking-reminders.ts): when and where
 * in the site's time zone, the arrival code and QR, the manage link and "Running late?".
 */
export function renderBookingReminder(facts: BookingMailFacts, manageUrl: string, arrival: ArrivalMark, hoursBefore: number): MailMessage {
  const when = formatSlot(facts.startTime, facts.endTime, facts.timeZone);
  const { text, html, inline } = textAndHtml(
    [
      `Hello ${facts.contactName || facts.tenantName},`,
      '',
      `A reminder of your dock booking ${facts.reference} at ${facts.orgName}, ${howSoon(hoursBefore)}.`,
      '',
      `When: ${when}`,
      `Site: ${facts.siteName}${facts.siteAddress ? `, ${facts.siteAddress}` : ''}`,
      `Bay: ${facts.bayName}`,
      `Vehicle: ${VEHICLE_TYPE_LABELS[facts.vehicleType as VehicleType] ?? facts.vehicleType}, ${facts.vehicleRegistration}`,
      '',
      ARRIVAL_SLOT,
      '',
      'Running late? Tell the site when you will arrive:',
      runningLateUrl(manageUrl),
      '',
      'See, move or cancel the booking:',
      manageUrl,
    ],
    arrival,
  );
  return {
    to: facts.tenantEmail,
    subject: `Reminder: booking ${facts.reference} ${howSoon(hoursBefore)} – ${facts.siteName}`,
    text,
    ...(html ? { html } : {}),
    attachments: inline,
  };
}
