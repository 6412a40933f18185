import { List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconClockHour4, IconPlus } from '@tabler/icons-react';
import { MIN_ADVANCE_MIN } from '../../../../domain/constants';
import { useT } from '../../../i18n/index';

/** Spec §5: what a haulier must have ready before requesting a slot (keys of the portal catalogue). */
export const REQUIRED_FOR_BOOKING = [
  'requirements.tsr',
  'requirements.dimensions',
  'requirements.documents',
  'requirements.induction',
  'requirements.contact',
] as const;

export const OPTIONAL_FOR_BOOKING = ['requirements.emergencyContact'] as const;

export function minAdvanceText(): string {
  const hours = MIN_ADVANCE_MIN / 60;
  return Number.isInteger(hours) ? `${hours} hours` : `${MIN_ADVANCE_MIN} minutes`;
}

export function BookingRequirements() {
  const { t } = useT('portal');
  const hours = MIN_ADVANCE_MIN / 60;
  return (
    <Stack gap="sm">
      <div>
        <Text fw={600} size="sm" mb={4}>
          {t('requirements.required')}
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
          {REQUIRED_FOR_BOOKING.map((key) => (
            <List.Item key={key}>{t(key)}</List.Item>
          ))}
        </List>
      </div>
      <div>
        <Text fw={600} size="sm" mb={4}>
          {t('requirements.optional')}
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
          {OPTIONAL_FOR_BOOKING.map((key) => (
            <List.Item key={key}>{t(key)}</List.Item>
          ))}
        </List>
      </div>
      <Text size="sm" fw={600} style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <IconClockHour4 size={18} aria-hidden color="var(--mantine-color-orange-8)" />
        {Number.isInteger(hours)
          ? t('requirements.minAdvanceHours', { hours })
          : t('requirements.minAdvanceMinutes', { minutes: MIN_ADVANCE_MIN })}
      </Text>
    </Stack>
  );
}
