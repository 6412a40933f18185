import { queryOptions } from '@tanstack/react-query';
import type { EmergencyState, GateMoveResponse, GateOverview, GateQueue, WalkInInput } from '../../../../domain/gate';
import { api } from '../../../lib/api-client';

// The gate of one site (issue 10): /api/sites/:siteId/gate/…. Queries are keyed under
// ['org', orgId, 'dashboard', 'gate', siteId] so live booking, bay and site events refresh them.

export function gateKey(orgId: string, siteId: string) {
  return ['org', orgId, 'dashboard', 'gate', siteId] as const;
}

const base = (siteId: string) => `/api/sites/${encodeURIComponent(siteId)}/gate`;

export function getGateOverview(siteId: string): Promise<GateOverview> {
  return api<GateOverview>(`${base(siteId)}/overview`);
}

export type GateMove =
  | { kind: 'check-in'; version: number }
  | { kind: 'start'; version: number; bayId?: string }
  | { kind: 'check-out'; version: number }
  | { kind: 'extend'; version: number; endTime: string }
  | { kind: 'approve'; version: number }
  | { kind: 'decline'; version: number; reason: string };

export function moveBooking(siteId: string, bookingId: string, move: GateMove): Promise<GateMoveResponse> {
  const { kind, ...body } = move;
  return api<GateMoveResponse>(`${base(siteId)}/bookings/${encodeURIComponent(bookingId)}/${kind}`, { method: 'POST', body });
}

export function stopSite(siteId: string, reason: string): Promise<EmergencyState> {
  return api<EmergencyState>(`${base(siteId)}/emergency`, { method: 'POST', body: { reason } });
}

export function resumeSite(siteId: string): Promise<EmergencyState> {
  return api<EmergencyState>(`${base(siteId)}/emergency`, { method: 'DELETE' });
}

export function getGateQueue(siteId: string): Promise<GateQueue> {
  return api<GateQueue>(`${base(siteId)}/queue`);
}

/** The gate queue of a site, under the gate's key so booking and site events refresh it. */
export function gateQueueQuery(orgId: string, siteId: string) {
  return queryOptions({
    queryKey: [...gateKey(orgId, siteId), 'queue'] as const,
    queryFn: () => getGateQueue(siteId),
    // The live events refresh it; this is the backstop should the socket be down.
    refetchInterval: 60_000,
  });
}

/** A vehicle without a booking: booked now on a free compatible bay and checked in (201). */
export function registerWalkIn(siteId: string, input: WalkInInput): Promise<GateMoveResponse> {
  return api<GateMoveResponse>(`${base(siteId)}/walk-ins`, { method: 'POST', body: input });
}
