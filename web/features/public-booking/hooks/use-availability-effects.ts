import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { useT } from '../../../i18n/index';
import type { Availability } from '../api/types';

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
  const { t } = useT('portal');
  const [cleared, setCleared] = useState<string | null>(null);
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) toast.error(t('slots.checkFailedTitle'), t('slots.checkFailed'));
    // Once per failure, not again when the language changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isError, errorUpdatedAt]);

  const freshData = query.isPlaceholderData ? undefined : query.data;
  useEffect(() => {
    if (!selectedSlot || !freshData) return;
    const slot = freshData.slots.find((s) => s.time === selectedSlot);
    if (!slot?.available) {
      clearSlot();
      setCleared(t('slots.cleared', { time: selectedSlot }));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
