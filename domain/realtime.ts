import { z } from 'zod';

// Live updates (spec §"Realtime": heartbeat 25 s; reconnect delays 1, 2, 5, 10 s, then 10 s).
// The server publishes one event per committed change; clients subscribed to the organization
// (optionally one site) receive it and refetch what it names. Events carry ids, never records:
// what a client may see is still decided by the API it refetches from.

export const REALTIME_HEARTBEAT_MS = 25_000;
export const REALTIME_RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000] as const;

export const REALTIME_ENTITIES = ['booking', 'bay', 'blackout', 'site', 'tenant', 'member', 'organization', 'plate_read', 'walk_in_request'] as const;
export type RealtimeEntity = (typeof REALTIME_ENTITIES)[number];

export const realtimeEventSchema = z.object({
  entity: z.enum(REALTIME_ENTITIES),
  /** created, updated, deleted, or a lifecycle move (approved, checked_in, …). */
  action: z.string().max(40),
  id: z.string().uuid(),
  orgId: z.string().uuid(),
  /** null for organization-wide changes. */
  siteId: z.string().uuid().nullable(),
  /** ISO time of the commit. */
  at: z.string(),
});
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;

/** Client → server messages on the socket. */
export const realtimeClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), orgId: z.string().uuid(), siteId: z.string().uuid().nullable().optional() }),
  z.object({ type: z.literal('ping') }),
]);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessageSchema>;

/** Server → client messages. */
export type RealtimeServerMessage =
  | { type: 'subscribed'; orgId: string; siteId: string | null }
  | { type: 'event'; event: RealtimeEvent }
  | { type: 'pong' }
  /**
   * To a driver's socket (subprotocol `manage.<token>`, one booking) while its vehicle waits at the
   * gate: another booking at its site changed, so its place in the queue may have. No id, no data.
   */
  | { type: 'queue' }
  | { type: 'error'; code: string; message: string };
