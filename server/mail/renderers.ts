import { bookingMailRenderers } from '../modules/bookings/booking-mail-queue';
import type { MailRenderers } from './outbox';

/** Every kind of queued mail the outbox worker can render, by area. */
export const mailRenderers: MailRenderers = {
  ...bookingMailRenderers,
};
