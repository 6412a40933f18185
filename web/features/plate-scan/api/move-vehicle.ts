import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GateMoveResponse } from '../../../../domain/gate';
import { moveBooking } from '../../dock-gate/api/gate-api';

// The scanner's one-tap gate moves: check a candidate in or out through the gate's own endpoint
// (/api/sites/:siteId/gate/bookings/:id/check-in | check-out) with the version the screen showed.
// A refusal (outside the check-in window, another visit on site, a stale version) changes nothing.

export type VehicleMove = { bookingId: string; kind: 'check-in' | 'check-out'; version: number };

export function useMoveVehicle(orgId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation<GateMoveResponse, Error, VehicleMove>({
    mutationFn: ({ bookingId, kind, version }) => moveBooking(siteId, bookingId, { kind, version }),
    // Moved or refused, the gate is read again (a refusal may mean the booking changed meanwhile).
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['org', orgId, 'dashboard'] }),
  });
}
