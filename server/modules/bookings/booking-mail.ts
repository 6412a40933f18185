import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { de } from 'date-fns/locale/de';
import { enUS } from 'date-fns/locale/en-US';
import { fr } from 'date-fns/locale/fr';
import { pl } from 'date-fns/locale/pl';
import type { Locale } from 'date-fns';
import { createEvent, type DateArray } from 'ics';
import { DEFAULT_LANGUAGE, type Language } from '../../../domain/languages';
import { translatorFor, type Translate } from '../../i18n/translate';
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
  /** The language the booking was made in: every text to the haulier is in it (English when absent). */
  language?: Language;
};

/** The haulier's texts for a booking, in its language (namespace `mail`, domain/i18n/mail/). */
export const mailTranslator = (language: Language = DEFAULT_LANGUAGE): Translate => translatorFor(language, 'mail');

/** A booking or vehicle type in the haulier's language (its code when the catalogue has no label). */
function labelOf(t: Translate, key: string, code: string): string {
  const label = t(key);
  return label === key ? code : label;
}
const typeLabel = (t: Translate, type: string) => labelOf(t, `type.${type}`, type);
const vehicleLabel = (t: Translate, type: string) => labelOf(t, `vehicle.${type}`, type);

const siteWithAddress = (facts: BookingMailFacts) => `${facts.siteName}${facts.siteAddress ? `, ${facts.siteAddress}` : ''}`;

/** How each language writes a slot's day and start: its own names of days and months. */
const SLOT_FORMATS: Record<Language, { locale: Locale; day: string }> = {
  en: { locale: enUS, day: 'EEE d MMM yyyy, HH:mm' },
  de: { locale: de, day: 'EEE, d. MMM yyyy, HH:mm' },
  pl: { locale: pl, day: 'EEE, d MMM yyyy, HH:mm' },
  fr: { locale: fr, day: 'EEE d MMM yyyy, HH:mm' },
};

/**
 * 'Mon 23 Nov 2026, 09:30–10:30 (Australia/Sydney)' in the site's own time zone, in the language's
 * words ('pon., 23 lis 2026, 09:30–10:30 (Europe/Warsaw)' in Polish).
 */
export function formatSlot(start: Date, end: Date, timeZone: string, language: Language = DEFAULT_LANGUAGE): string {
  const s = new TZDate(start, timeZone);
  const e = new TZDate(end, timeZone);
  const { locale, day } = SLOT_FORMATS[language];
  return `${format(s, day, { locale })}–${format(e, 'HH:mm')} (${timeZone})`;
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
  const t = mailTranslator(facts.language);
  const description = [
    t('ics.description', { type: typeLabel(t, facts.bookingType), org: facts.orgName, site: facts.siteName, bay: facts.bayName }),
    t('ics.vehicle', { registration: facts.vehicleRegistration }),
    ...(manageUrl ? [t('ics.manage', { url: manageUrl })] : []),
  ].join('\n');
  const { error, value } = createEvent({
    uid: bookingIcsUid(facts.id),
    sequence: facts.version,
    method,
    title: t('ics.title', { reference: facts.reference, site: facts.siteName, bay: facts.bayName }),
    description,
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

function arrivalTextLines(t: Translate, arrival: ArrivalMark): string[] {
  return [t('arrival.code', { code: arrival.code }), t('arrival.textHint')];
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A line as HTML: escaped, a link as a link. */
const htmlLine = (line: string) => (/^https?:\/\/\S+$/.test(line) ? `<a href="${escapeHtml(line)}">${escapeHtml(line)}</a>` : escapeHtml(line));

function arrivalHtml(t: Translate, arrival: ArrivalMark): string {
  // The code goes in bold where the language's sentence puts it.
  const mark = '\u0000';
  const [before = '', after = ''] = t('arrival.code', { code: mark }).split(mark);
  return [
    '<div style="margin:16px 0;padding:12px 16px;border:1px solid #ccd;border-radius:8px;display:inline-block">',
    `<p style="margin:0 0 8px">${escapeHtml(before)}<strong style="font-family:monospace;font-size:22px;letter-spacing:2px">${escapeHtml(arrival.code)}</strong>${escapeHtml(after)}</p>`,
    `<img src="cid:${escapeHtml(arrival.qr.cid ?? '')}" width="200" height="200" alt="${escapeHtml(t('arrival.qrAlt', { code: arrival.code }))}">`,
    `<p style="margin:8px 0 0">${escapeHtml(t('arrival.htmlHint'))}</p>`,
    '</div>',
  ].join('');
}

/** The message's text and HTML parts from one list of lines (blank lines part paragraphs). */
function textAndHtml(t: Translate, language: Language, lines: MailLine[], arrival: ArrivalMark | null): { text: string; html?: string; inline: MailAttachment[] } {
  const text = lines.flatMap((line) => (typeof line !== 'string' ? (arrival ? arrivalTextLines(t, arrival) : []) : [line])).join('\n');
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
      blocks.push(arrivalHtml(t, arrival));
    } else if (line === '') flush();
    else paragraph.push(htmlLine(line));
  }
  flush();
  const html = `<!doctype html><html lang="${language}"><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.45;color:#1a1b1e">${blocks.join('\n')}</body></html>`;
  return { text, html, inline: [arrival.qr] };
}

const WHAT_TO_BRING = ['received.bring.tsr', 'received.bring.consignment', 'received.bring.induction', 'received.bring.registration'];

const greeting = (t: Translate, facts: BookingMailFacts) => t('greeting', { name: facts.contactName || facts.tenantName });

/** The haulier's confirmation of a new request, with the .ics, the manage link and the arrival code. */
export function renderBookingConfirmation(facts: BookingMailFacts, manageUrl: string, arrival: ArrivalMark | null = null): MailMessage {
  const language = facts.language ?? DEFAULT_LANGUAGE;
  const t = mailTranslator(language);
  const when = formatSlot(facts.startTime, facts.endTime, facts.timeZone, language);
  const lines: MailLine[] = [
    greeting(t, facts),
    '',
    t('received.intro', { reference: facts.reference }),
    '',
    t('received.status'),
    t('line.organization', { org: facts.orgName }),
    t('line.site', { site: siteWithAddress(facts) }),
    t('line.bay', { bay: facts.bayName }),
    t('line.when', { when }),
    t('line.type', { type: typeLabel(t, facts.bookingType) }),
    t('line.vehicle', { vehicleType: vehicleLabel(t, facts.vehicleType), registration: facts.vehicleRegistration }),
    t('received.documents', { count: facts.documents }),
    '',
    t('received.whatToBring'),
    ...WHAT_TO_BRING.map((item) => `- ${t(item)}`),
    '',
    ...(arrival ? [ARRIVAL_SLOT, ''] : []),
    t('received.manage'),
    manageUrl,
    '',
    t('received.keepPrivate'),
  ];
  const { text, html, inline } = textAndHtml(t, language, lines, arrival);
  return {
    to: facts.tenantEmail,
    subject: t('received.subject', { reference: facts.reference }),
    text,
    ...(html ? { html } : {}),
    attachments: [icsAttachment(facts, manageUrl, 'REQUEST'), ...inline],
  };
}

/** The organization's admins hear of a new request waiting for review (in English, as all staff mail). */
export function renderNewRequestToAdmins(publicUrl: string, facts: BookingMailFacts, adminEmails: string[]): MailMessage | null {
  if (adminEmails.length === 0) return null;
  const t = mailTranslator(DEFAULT_LANGUAGE);
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
      `Vehicle: ${vehicleLabel(t, facts.vehicleType)}, ${facts.vehicleRegistration}`,
      `Documents: ${facts.documents}`,
      '',
      `Review it in Baywise: ${publicUrl}/org/bookings`,
    ].join('\n'),
  };
}

/** What happened to a booking, as the haulier is told: by themselves (link) or by the site. */
export const BOOKING_CHANGES = ['cancelled', 'moved', 'approved', 'declined', 'cancelled_by_site', 'moved_by_site', 'no_show', 'site_closed'] as const;
export type BookingChange = (typeof BOOKING_CHANGES)[number];

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
  const language = facts.language ?? DEFAULT_LANGUAGE;
  const t = mailTranslator(language);
  const when = formatSlot(facts.startTime, facts.endTime, facts.timeZone, language);
  const update = (change === 'moved' || change === 'moved_by_site' || change === 'approved') && manageUrl;
  // The haulier's calendar drops the slot: the site or the haulier cancelled it, or it was declined.
  const cancel = change === 'cancelled' || change === 'cancelled_by_site' || change === 'declined';
  const withArrival = change === 'approved' ? arrival : null;
  const values = { reference: facts.reference, org: facts.orgName, site: facts.siteName, bay: facts.bayName, when };
  const { text, html, inline } = textAndHtml(
    t,
    language,
    [
      greeting(t, facts),
      '',
      t(`changed.${change}`, values),
      ...(reason ? ['', t('line.reason', { reason })] : []),
      ...(withArrival ? ['', ARRIVAL_SLOT] : []),
      ...(manageUrl && change !== 'declined' ? ['', t('changed.manage'), manageUrl] : []),
    ],
    withArrival,
  );
  const calendar = update ? [icsAttachment(facts, manageUrl, 'REQUEST')] : cancel ? [icsAttachment(facts, null, 'CANCEL')] : [];
  const attachments = [...calendar, ...inline];
  return {
    to: facts.tenantEmail,
    subject: t(`changed.${change}.subject`, { reference: facts.reference }),
    text,
    ...(html ? { html } : {}),
    attachments: attachments.length > 0 ? attachments : undefined,
  };
}

/** The query that opens the manage page on its "Running late?" form. */
export const runningLateUrl = (manageUrl: string) => `${manageUrl}?late=1`;

/** 'in 2 hours', 'tomorrow' … as a reminder's subject says how soon (ICU plurals per language). */
function howSoon(t: Translate, hoursBefore: number): string {
  if (hoursBefore === 24) return t('reminder.tomorrow');
  if (hoursBefore % 24 === 0) return t('reminder.inDays', { days: hoursBefore / 24 });
  return t('reminder.inHours', { hours: hoursBefore });
}

/**
 * A reminder before the slot (the job runner's, server/jobs/booking-reminders.ts): when and where
 * in the site's time zone, the arrival code and QR, the manage link and "Running late?".
 */
export function renderBookingReminder(facts: BookingMailFacts, manageUrl: string, arrival: ArrivalMark, hoursBefore: number): MailMessage {
  const language = facts.language ?? DEFAULT_LANGUAGE;
  const t = mailTranslator(language);
  const when = formatSlot(facts.startTime, facts.endTime, facts.timeZone, language);
  const soon = howSoon(t, hoursBefore);
  const { text, html, inline } = textAndHtml(
    t,
    language,
    [
      greeting(t, facts),
      '',
      t('reminder.intro', { reference: facts.reference, org: facts.orgName, soon }),
      '',
      t('line.when', { when }),
      t('line.site', { site: siteWithAddress(facts) }),
      t('line.bay', { bay: facts.bayName }),
      t('line.vehicle', { vehicleType: vehicleLabel(t, facts.vehicleType), registration: facts.vehicleRegistration }),
      '',
      ARRIVAL_SLOT,
      '',
      t('reminder.runningLate'),
      runningLateUrl(manageUrl),
      '',
      t('reminder.manage'),
      manageUrl,
    ],
    arrival,
  );
  return {
    to: facts.tenantEmail,
    subject: t('reminder.subject', { reference: facts.reference, soon, site: facts.siteName }),
    text,
    ...(html ? { html } : {}),
    attachments: inline,
  };
}
