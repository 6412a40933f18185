import { Alert, Button, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { Availability } from '../api/types';
import { alertStyles } from '../utils/styles';
import { useT } from '../../../i18n/index';
import { useTranslateMessage } from '../../../i18n/validation';

export type SlotGridProps = {
  /** The day's grid, once loaded (may be the previous day's while a new one loads). */
  availability: Availability | undefined;
  /** A request for this grid is in flight. */
  isFetching: boolean;
  isError: boolean;
  selectedSlot: string | null;
  onSelect: (time: string) => void;
  /** Shown above the grid, e.g. to say whose vehicle the bays must fit. */
  label?: string;
  /** Said when a slot chosen earlier was cleared because the new grid no longer offers it. */
  clearedNotice?: string | null;
};

/**
 * The time slots of one day: each shows its time and free bays; unavailable slots are disabled;
 * the chosen one is pressed. Rendered once a date has been chosen.
 */
export function SlotGrid({
  availability,
  isFetching,
  isError,
  selectedSlot,
  onSelect,
  label,
  clearedNotice = null,
}: SlotGridProps) {
  const { t } = useT('portal');
  // The server writes the day's notice in English (the public API's words): shown in the chosen language.
  const translateMessage = useTranslateMessage();
  const notice = availability?.notice ? translateMessage(availability.notice) : null;
  const isLoadingFirst = isFetching && !availability;
  return (
    <Stack gap="xs" aria-busy={isFetching} data-testid="slot-grid" data-date={isFetching ? undefined : availability?.date}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text fw={500} size="sm" id="slot-grid-label">
          {label ?? t('slots.available')}
        </Text>
        {availability && !isFetching && availability.siteName ? (
          <Text size="xs" c="dimmed">
            {t('slots.localTimes', { site: availability.siteName, timeZone: availability.timeZone })}
          </Text>
        ) : null}
      </Group>

      <div role="status" aria-live="polite">
        {isFetching ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {t('slots.checking')}
            </Text>
          </Group>
        ) : isError && !availability ? (
          <Text size="sm" c="red.9">
            {t('slots.loadFailed')}
          </Text>
        ) : availability ? (
          availability.isMonthFull ? (
            // The organization takes no more bookings this month: the neutral notice, no grid.
            <Alert color="gray" variant="light" styles={alertStyles} icon={<IconInfoCircle size={18} aria-hidden />} p="xs" data-testid="month-full">
              {notice}
            </Alert>
          ) : availability.compatibleBays === 0 ? (
            <Alert color="orange" variant="light" styles={alertStyles} icon={<IconAlertTriangle size={18} aria-hidden />} p="xs">
              <Text size="sm" fw={600} inherit>
                {t('slots.noCompatible')}
              </Text>
              {notice ? <Text size="sm" inherit>{notice}</Text> : null}
            </Alert>
          ) : notice ? (
            // The day has nothing to offer: say why instead of a count of bays.
            <Alert color="gray" variant="light" styles={alertStyles} icon={<IconInfoCircle size={18} aria-hidden />} p="xs">
              {notice}
            </Alert>
          ) : (
            <Group gap={6}>
              <IconCircleCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />
              <Text size="sm" fw={500}>
                {t('slots.compatibleCount', { count: availability.compatibleBays })}
              </Text>
            </Group>
          )
        ) : null}
        {clearedNotice ? (
          <Text size="sm" c="red.9" mt={4} data-testid="slot-cleared">
            {clearedNotice}
          </Text>
        ) : null}
      </div>

      {isLoadingFirst || availability?.isMonthFull ? null : availability && (availability.slots.length === 0 || availability.compatibleBays === 0) ? (
        <Text size="sm" c="dimmed">
          {t('slots.none')}
        </Text>
      ) : availability ? (
        <SimpleGrid
          cols={{ base: 3, xs: 4, sm: 6 }}
          spacing="xs"
          role="group"
          aria-labelledby="slot-grid-label"
          style={{ opacity: isFetching ? 0.6 : 1 }}
        >
          {availability.slots.map((slot) => {
            const isSelected = slot.time === selectedSlot;
            return (
              <Button
                key={slot.time}
                type="button"
                variant={isSelected ? 'filled' : 'default'}
               
                disabled={!slot.available || isFetching}
                aria-pressed={isSelected}
                onClick={() => onSelect(slot.time)}
                h="auto"
                py={6}
                px={4}
                styles={{ label: { flexDirection: 'column', lineHeight: 1.25 } }}
                data-slot={slot.time}
              >
                <Text span fw={600} size="sm" inherit={false} c={isSelected ? 'white' : undefined}>
                  {slot.time}
                </Text>
                <Text span size="xs" inherit={false} c={isSelected ? 'white' : slot.available ? 'dimmed' : undefined}>
                  {t('slots.freeBays', { count: slot.freeBays })}
                </Text>
              </Button>
            );
          })}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
