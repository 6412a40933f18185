import { languageOr } from '../../../domain/languages';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { enqueueMail, type MailPass, type MailRenderers } from '../../mail/outbox';
import { listOrgAdminEmails } from '../../mail/recipients';
import { hashToken } from '../../auth/tokens';
import { readOrgSettingsOf } from '../org-settings/org-settings.service';
import {
  addressOf,
  renderBookingChanged,
  renderBookingConfirmation,
  renderBookingReminder,
  renderNewRequestToAdmins,
  BOOKING_CHANGES,
  type BookingChange,
  type BookingMailFacts,
} from './booking-mail';
import * as repo from './bookings.repo';
import { manageTokenFor } from './manage-token';
import { arrivalMarkFor } from './arrival-qr';

// Booking e-mail goes through the mail outbox: queued in the transaction of the change, rendered
// from the booking as it is at delivery, in the site's time zone.

type BookingRef = { id: string; orgId: string; tenantEmail: string };

export function mailFacts(view: repo.BookingView, documents: number, organizerEmail?: string): BookingMailFacts {
  const b = view.booking;
  return {
    id: b.id,
    reference: b.tsrNumber,
    status: b.status,
    version: b.version,
    organizerEmail,
    orgName: view.orgName,
    siteName: view.siteName,
    siteAddress: view.siteAddress,
    bayName: view.bayName,
    timeZone: view.timeZone,
    startTime: b.startTime,
    endTime: b.endTime,
    tenantName: b.tenantName,
    contactName: b.contactName,
    tenantEmail: b.tenantEmail,
    bookingType: b.bookingType,
    vehicleType: b.vehicleType,
    vehicleRegistration: b.vehicleRegistration,
    documents,
    language: languageOr(b.language),
  };
}

export const manageUrlFor = (ctx: AppContext, token: string) => `${ctx.config.publicUrl}/book/manage/${token}`;

/** The booking's manage link, when its stored hash is the one derived from its id. */
function manageUrlOf(ctx: AppContext, view: repo.BookingView): string | null {
  const token = manageTokenFor(ctx.authSecret, view.booking.id);
  return view.booking.manageTokenHash === hashToken(token) ? manageUrlFor(ctx, token) : null;
}

/** A new portal request: the haulier's confirmation and the admins' notice. */
export function queueNewBookingMail(tx: Tx, now: Date, booking: BookingRef, documents: number) {
  return enqueueMail(tx, now, [
    { kind: 'booking.received', orgId: booking.orgId, recipients: [booking.tenantEmail], payload: { bookingId: booking.id, documents } },
    { kind: 'booking.new_request', orgId: booking.orgId, payload: { bookingId: booking.id, documents } },
  ]);
}

export function queueBookingChangedMail(tx: Tx, now: Date, booking: BookingRef, change: BookingChange, reason: string | null = null) {
  return enqueueMail(tx, now, [
    { kind: 'booking.changed', orgId: booking.orgId, recipients: [booking.tenantEmail], payload: { bookingId: booking.id, change, reason } },
  ]);
}

/**
 * Who hears of a new request, as the organization's notification settings say at delivery: the
 * listed addresses, or every active org admin (also when the list is somehow empty: nobody must
 * miss a request).
 */
export async function newRequestRecipients(ctx: AppContext, orgId: string): Promise<string[]> {
  const { notifications } = await readOrgSettingsOf(ctx.database.db, orgId);
  if (notifications.newRequestRecipients === 'custom' && notifications.newRequestEmails.length > 0) return notifications.newRequestEmails;
  return listOrgAdminEmails(ctx.database.db, orgId);
}

/** The booking as it is now; read once per delivery pass (a new booking's two mails share it). */
async function loadView(ctx: AppContext, payload: Record<string, unknown>, pass?: MailPass) {
  const bookingId = payload.bookingId;
  if (typeof bookingId !== 'string') return undefined;
  const load = () => repo.findBookingViewAnyOrg(ctx.database.db, bookingId);
  return pass ? pass.memo(`booking-view:${bookingId}`, load) : load();
}

export const bookingMailRenderers: MailRenderers = {
  'booking.received': async (ctx, payload, _recipients, pass) => {
    const view = await loadView(ctx, payload, pass);
    const manageUrl = view && manageUrlOf(ctx, view);
    if (!view || !manageUrl) return null;
    const arrival = await arrivalMarkFor(ctx, view.booking.id);
    return renderBookingConfirmation(mailFacts(view, Number(payload.documents ?? 0), addressOf(ctx.config.mailFrom)), manageUrl, arrival);
  },
  'booking.new_request': async (ctx, payload, _recipients, pass) => {
    const view = await loadView(ctx, payload, pass);
    if (!view) return null;
    const orgId = view.booking.orgId;
    const recipients = pass ? await pass.memo(`new-request-recipients:${orgId}`, () => newRequestRecipients(ctx, orgId)) : await newRequestRecipients(ctx, orgId);
    return renderNewRequestToAdmins(ctx.config.publicUrl, mailFacts(view, Number(payload.documents ?? 0)), recipients);
  },
  'booking.changed': async (ctx, payload, _recipients, pass) => {
    const view = await loadView(ctx, payload, pass);
    if (!view) return null;
    const change = (BOOKING_CHANGES as readonly unknown[]).includes(payload.change) ? (payload.change as BookingChange) : 'moved';
    const reason = typeof payload.reason === 'string' ? payload.reason : null;
    const arrival = change === 'approved' ? await arrivalMarkFor(ctx, view.booking.id) : null;
    return renderBookingChanged(mailFacts(view, 0, addressOf(ctx.config.mailFrom)), manageUrlOf(ctx, view), change, reason, arrival);
  },
  // Queued by the reminders job (server/jobs/booking-reminders.ts); nothing when the booking was
  // cancelled, moved on or has started since.
  'booking.reminder': async (ctx, payload) => {
    const view = await loadView(ctx, payload);
    const manageUrl = view && manageUrlOf(ctx, view);
    if (!view || !manageUrl || view.booking.status !== 'approved' || view.booking.startTime <= ctx.clock.now()) return null;
    const hoursBefore = Number(payload.hoursBefore ?? 0);
    return renderBookingReminder(mailFacts(view, 0, addressOf(ctx.config.mailFrom)), manageUrl, await arrivalMarkFor(ctx, view.booking.id), hoursBefore);
  },
};
