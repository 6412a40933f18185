import type { MailRenderers } from '../mail/outbox';

// The organization admins' e-mail when an endpoint is disabled after repeated failure. Queued in
// the transaction that disables it (webhook-delivery.ts); rendered from its payload.

export const WEBHOOK_DISABLED_MAIL_KIND = 'webhook.disabled';

export const webhookMailRenderers: MailRenderers = {
  [WEBHOOK_DISABLED_MAIL_KIND]: async (ctx, payload, recipients) => {
    if (recipients.length === 0 || typeof payload.url !== 'string') return null;
    const reason = typeof payload.reason === 'string' ? payload.reason : 'Repeated delivery failures';
    return {
      to: recipients,
      subject: `Webhook endpoint disabled: ${payload.url}`,
      text: [
        `Baywise stopped sending events to ${payload.url} because its deliveries kept failing.`,
        '',
        `Reason: ${reason}`,
        '',
        'Events are not queued for it while it is disabled. Fix the receiver, then enable the endpoint again',
        `under Settings → Integrations → Webhooks (${ctx.config.publicUrl}/org/settings), and redeliver what it missed from its delivery log.`,
      ].join('\n'),
    };
  },
};
