/** The body of every organization webhook (docs/webhooks.md): one event id, its type, when, whose, and its data. */
export function eventEnvelope(eventId: string, type: string, orgId: string, now: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ id: eventId, type, createdAt: now.toISOString(), organizationId: orgId, data });
}
