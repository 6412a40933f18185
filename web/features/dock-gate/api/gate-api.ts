import { queryOptions } from '@tanstack/react-query';
import type { EmergencyState, GateMoveResponse, GateOverview, GateQueue, WalkInInput } from '../../../../domain/gate';
import { apiCall } from '../../../lib/api-client';

// The gate of one site (issue 10): /api/sites/:siteId/gate/…. Queries are keyed under
// ['org', orgId, 'dashboard', 'gate', siteId] so live booking, bay and site events refresh them.

export function gateKey(orgId: string, siteId: string) {
  return ['org', orgId, 'dashboard', 'gate', siteId] as const;
}

export function getGateOverview(siteId: string): Promise<GateOverview> {
  return apiCall('GET /api/sites/:siteId/gate/overview', { params: { siteId } });
}

export type GateMove =
  | { kind: 'check-in'; version: number }
  | { kind: 'start'; version: number; bayId?: string }
  | { kind: 'check-out'; version: number }
  | { kind: 'extend'; version: number; endTime: string }
  | { kind: 'approve'; version: number }
  | { kind: 'decline'; version: number; reason: string };

export function moveBooking(siteId: string, bookingId: string, move: GateMove): Promise<GateMoveResponse> {
  const params = { siteId, bookingId };
  switch (move.kind) {
    case 'check-in':
      return apiCall('POST /api/sites/:siteId/gate/bookings/:bookingId/check-in', { params, body: { version: move.version } });
    case 'start':
      return apiCall('POST /api/sites/:siteId/gate/bookings/:bookingId/start', { params, body: { version: move.version, bayId: move.bayId } });
    case 'check-out':
      return apiCall('POST /api/sites/:siteId/gate/bookings/:bookingId/check-out', { params, body: { version: move.version } });
    case 'extend':
      return apiCall('POST /api/sites/:siteId/gate/bookings/:bookingId/extend', { params, body: { version: move.version, endTime: move.endTime } });
    case 'approve':
      return apiCall('POST /api/sites/:siteId/gate/bookings/:bookingId/approve', { params, body: { version: move.version } });
    case 'decline':
      return apiCall('POST /api/sites/:siteId/gate/bookings/:bookingId/decline', { params, body: { version: move.version, reason: move.reason } });
  }
}

export function stopSite(siteId: string, reason: string): Promise<EmergencyState> {
  return apiCall('POST /api/sites/:siteId/gate/emergency', { params: { siteId }, body: { reason } });
}

export function resumeSite(siteId: string): Promise<EmergencyState> {
  return apiCall('DELETE /api/sites/:siteId/gate/emergency', { params: { siteId } });
}

export function getGateQueue(siteId: string): Promise<GateQueue> {
  return apiCall('GET /api/sites/:siteId/gate/queue', { params: { siteId } });
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
  return apiCall('POST /api/sites/:siteId/gate/walk-ins', { params: { siteId }, body: input });
}
