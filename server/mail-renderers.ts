import { bookingMailRenderers } from './modules/bookings/booking-mail-queue';
import { teamMailRenderers } from './modules/team/invitation-mail';
import { gateMailRenderers } from './modules/gate/gate-mail';
import { webhookMailRenderers } from './delivery/webhook-mail';
import { bookingCapMailRenderers } from './modules/billing/booking-cap-mail';
import type { MailRenderers } from './mail/outbox';
import { recoveryMailRenderers } from './modules/auth/recovery-mail';
import { haulierMailRenderers } from './modules/haulier-accounts/sign-in-mail';
import { standingMailRenderers } from './modules/standing-bookings/standing-mail';

/** Every kind of queued mail the outbox worker can render, by area. */
export const mailRenderers: MailRenderers = {
  ...bookingMailRenderers,
  ...teamMailRenderers,
  ...gateMailRenderers,
  ...webhookMailRenderers,
  ...bookingCapMailRenderers,
  ...recoveryMailRenderers,
  ...haulierMailRenderers,
  ...standingMailRenderers,
};
