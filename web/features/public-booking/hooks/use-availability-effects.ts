import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '../../../lib/toast';
import type { Availability } from '../api/types';

/**
 * What every slot grid does around its query: a failure is toasted once (spec §8), and a slot
 * chosen earlier that the fresh grid no longer offers is cleared.
 */
export function useAvailabilityEffects(
  query: UseQueryResult<Availability>,
  selectedSlot: string | null,
  clearSlot: () => void,
) {
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) toast.error('Error', 'Failed to check slot availability');
  }, [isError, errorUpdatedAt]);

  const freshData = query.isPlaceholderData ? undefined : query.data;
  useEffect(() => {
    if (!selectedSlot || !freshData) return;
    const slot = freshData.slots.find((s) => s.time === selectedSlot);
    if (!slot?.available) clearSlot();
  }, [freshData, selectedSlot, clearSlot]);
}
