import { List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconClockHour4, IconPlus } from '@tabler/icons-react';
import { MIN_ADVANCE_MIN } from '../../../../domain/constants';

/** Spec §5: what a haulier must have ready before requesting a slot. */
export const REQUIRED_FOR_BOOKING = [
  'Valid TSR number',
  'Vehicle dimensions',
  'Consignment documentation',
  'Induction certificate',
  'Contact information',
] as const;

export const OPTIONAL_FOR_BOOKING = ['Emergency contact'] as const;

export function minAdvanceText(): string {
  const hours = MIN_ADVANCE_MIN / 60;
  return Number.isInteger(hours) ? `${hours} hours` : `${MIN_ADVANCE_MIN} minutes`;
}

export function BookingRequirements() {
  return (
    <Stack gap="sm">
      <div>
        <Text fw={600} size="sm" mb={4}>
          Required
        </Text>
        <List
          spacing={4}
          size="sm"
          icon={
            <ThemeIcon color="green" size={18} radius="xl">
              <IconCheck size={12} aria-hidden />
            </ThemeIcon>
          }
        >
          {REQUIRED_FOR_BOOKING.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
      </div>
      <div>
        <Text fw={600} size="sm" mb={4}>
          Optional
        </Text>
        <List
          spacing={4}
          size="sm"
          icon={
            <ThemeIcon color="gray" size={18} radius="xl">
              <IconPlus size={12} aria-hidden />
            </ThemeIcon>
          }
        >
          {OPTIONAL_FOR_BOOKING.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
      </div>
      <Text size="sm" fw={600} style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <IconClockHour4 size={18} aria-hidden color="var(--mantine-color-orange-8)" />
        Bookings must be made at least {minAdvanceText()} in advance.
      </Text>
    </Stack>
  );
}
