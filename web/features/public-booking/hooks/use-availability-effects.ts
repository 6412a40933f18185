import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import type { Availability } from '../api/types';

/** What the haulier reads when the slot they chose is no longer offered for the new answers. */
export const slotClearedMessage = (time: string) => `The ${time} slot is no longer available for this vehicle; choose another time.`;

/**
 * What every slot grid does around its query: a failure is toasted once (spec §8); a slot chosen
 * earlier is kept while the fresh grid still offers it, and otherwise cleared with a message
 * saying so (returned; null when nothing was cleared since the last choice).
 */
export function useAvailabilityEffects(
  query: UseQueryResult<Availability>,
  selectedSlot: string | null,
  clearSlot: () => void,
): string | null {
  const [cleared, setCleared] = useState<string | null>(null);
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) toast.error('Error', 'Failed to check slot availability');
  }, [isError, errorUpdatedAt]);

  const freshData = query.isPlaceholderData ? undefined : query.data;
  useEffect(() => {
    if (!selectedSlot || !freshData) return;
    const slot = freshData.slots.find((s) => s.time === selectedSlot);
    if (!slot?.available) {
      clearSlot();
      setCleared(slotClearedMessage(selectedSlot));
    }
  }, [freshData, selectedSlot, clearSlot]);

  // A new choice, or a new day, makes the message stale.
  useEffect(() => {
    if (selectedSlot) setCleared(null);
  }, [selectedSlot]);
  const date = freshData?.date;
  const shownDate = useRef(date);
  useEffect(() => {
    if (!date) return; // between grids
    if (shownDate.current && date !== shownDate.current) setCleared(null);
    shownDate.current = date;
  }, [date]);
  return cleared;
}
