import { queryOptions } from '@tanstack/react-query';
import type { GateMoveResponse, WalkInInput } from '../../../../domain/gate';
import type { WalkInRequest } from '../../../../domain/kiosk';
import { apiCall } from '../../../lib/api-client';
import { gateKey } from './gate-api';

// The kiosk's walk-in requests of a site (/api/sites/:siteId/kiosk/walk-in-requests…), under the
// gate's key: a live 'walk_in_request' or booking event refreshes them.

export function walkInRequestsQuery(orgId: string, siteId: string) {
  return queryOptions({
    queryKey: [...gateKey(orgId, siteId), 'walk-in-requests'] as const,
    queryFn: (): Promise<WalkInRequest[]> => apiCall('GET /api/sites/:siteId/kiosk/walk-in-requests', { params: { siteId } }),
    refetchInterval: 60_000,
  });
}

export function acceptWalkInRequest(siteId: string, requestId: string, input: WalkInInput): Promise<GateMoveResponse> {
  return apiCall('POST /api/sites/:siteId/kiosk/walk-in-requests/:requestId/accept', { params: { siteId, requestId }, body: input });
}

export function declineWalkInRequest(siteId: string, requestId: string, reason: string | undefined): Promise<WalkInRequest> {
  return apiCall('POST /api/sites/:siteId/kiosk/walk-in-requests/:requestId/decline', { params: { siteId, requestId }, body: { reason } });
}
