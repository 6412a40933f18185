import type { AppContext } from '../../context';
import { kickWebhookDeliveries } from '../../delivery/webhook-delivery';

/** After commit only: a rolled-back change must not make every open screen refetch. */
export function publishBookingEvent(
  ctx: AppContext,
  action: string,
  booking: { id: string; orgId: string; siteId: string | null },
  at: Date,
): void {
  ctx.realtime?.publish({ entity: 'booking', action, id: booking.id, orgId: booking.orgId, siteId: booking.siteId, at: at.toISOString() });
  kickWebhookDeliveries(ctx);
}
