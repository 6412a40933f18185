import { Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconTruck, IconTruckLoading } from '@tabler/icons-react';
import type { ManagedBooking } from '../api/types';
import { formatSiteTime } from '../utils/format';
import { useT, type Translate } from '../../../i18n/index';

// The driver's live state on the day (issue 26), at the top of the manage page: where the visit
// stands, the place in the queue while waiting, and "Go to bay …" the moment the truck is called.
// The page keeps it current by itself (use-manage-live.ts); the card is a polite live region so a
// screen reader announces the change.

type Live = NonNullable<ManagedBooking['live']>;
type State = { color: string; icon: React.ReactNode; title: React.ReactNode; text: string; isCalled?: boolean };

function stateOf(booking: ManagedBooking, live: Live, t: Translate): State | null {
  const at = (iso: string | null) => (iso ? formatSiteTime(iso, booking.timeZone) : null);
  switch (booking.status) {
    case 'pending':
      return { color: 'yellow', icon: <IconClockHour4 size={28} aria-hidden />, title: t('pending.title'), text: t('pending.text') };
    case 'approved': {
      // The manage page's own advice (15 minutes early); the gate's window opens before that.
      const from = at(new Date(new Date(booking.startTime).getTime() - 15 * 60_000).toISOString());
      return {
        color: 'blue',
        icon: <IconTruck size={28} aria-hidden />,
        title: t('approved.title', { slot: booking.slot }),
        text: t('approved.text', { time: from ?? '' }),
      };
    }
    case 'checked_in':
      return {
        color: 'orange',
        icon: <IconClockHour4 size={28} aria-hidden />,
        title: live.position ? t('waiting.titlePosition', { position: live.position }) : t('waiting.title'),
        text: live.checkedInAt ? t('waiting.checkedInAt', { time: at(live.checkedInAt) ?? '' }) : t('waiting.checkedIn'),
      };
    case 'in_progress':
    case 'overstay':
      return {
        color: 'green',
        icon: <IconTruckLoading size={28} aria-hidden />,
        title: (
          <>
            {t('called.goToBay')} <span style={{ whiteSpace: 'nowrap' }}>{live.calledToBay ?? booking.bayName}</span>
          </>
        ),
        text: live.calledAt ? t('called.textAt', { time: at(live.calledAt) ?? '' }) : t('called.text'),
        isCalled: true,
      };
    case 'completed':
      return { color: 'gray', icon: <IconCircleCheck size={28} aria-hidden />, title: t('completed.title'), text: t('completed.text') };
    default:
      return null;
  }
}

export function DriverLiveStatus({ booking }: { booking: ManagedBooking }) {
  const { t } = useT('driver');
  const state = booking.live ? stateOf(booking, booking.live, t) : null;
  if (!state) return null;
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      role="status"
      aria-live="polite"
      data-testid="driver-live"
      style={{ borderColor: `var(--mantine-color-${state.color}-6)`, borderWidth: state.isCalled ? 3 : 2 }}
    >
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon color={state.color} variant="light" size={48} radius="xl">
          {state.icon}
        </ThemeIcon>
        <div>
          <Title order={2} size={state.isCalled ? 'h1' : 'h3'} data-testid="driver-live-title">
            {state.title}
          </Title>
          <Text size="sm" mt={4}>
            {state.text}
          </Text>
        </div>
      </Group>
    </Card>
  );
}
