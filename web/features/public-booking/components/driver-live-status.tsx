import { Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconTruck, IconTruckLoading } from '@tabler/icons-react';
import type { ManagedBooking } from '../api/types';
import { formatSiteTime } from '../utils/format';

// The driver's live state on the day (issue 26), at the top of the manage page: where the visit
// stands, the place in the queue while waiting, and "Go to bay …" the moment the truck is called.
// The page keeps it current by itself (use-manage-live.ts); the card is a polite live region so a
// screen reader announces the change.

type Live = NonNullable<ManagedBooking['live']>;
type State = { color: string; icon: React.ReactNode; title: React.ReactNode; text: string; isCalled?: boolean };

function stateOf(booking: ManagedBooking, live: Live): State | null {
  const at = (iso: string | null) => (iso ? formatSiteTime(iso, booking.timeZone) : null);
  switch (booking.status) {
    case 'pending':
      return { color: 'yellow', icon: <IconClockHour4 size={28} aria-hidden />, title: 'Today: waiting for approval', text: 'The site has not approved this booking yet. This page updates by itself.' };
    case 'approved': {
      // The manage page's own advice (15 minutes early); the gate's window opens before that.
      const from = at(new Date(new Date(booking.startTime).getTime() - 15 * 60_000).toISOString());
      return {
        color: 'blue',
        icon: <IconTruck size={28} aria-hidden />,
        title: `Today at ${booking.slot}`,
        text: `Arrive at the gate from ${from} and check in with your arrival code. This page updates by itself.`,
      };
    }
    case 'checked_in':
      return {
        color: 'orange',
        icon: <IconClockHour4 size={28} aria-hidden />,
        title: live.position ? `Please wait — you will be called (position ${live.position})` : 'Please wait — you will be called',
        text: `Checked in${live.checkedInAt ? ` at ${at(live.checkedInAt)}` : ''}. Stay with your vehicle: this page changes as soon as you are called.`,
      };
    case 'in_progress':
    case 'overstay':
      return {
        color: 'green',
        icon: <IconTruckLoading size={28} aria-hidden />,
        title: (
          <>
            Go to bay <span style={{ whiteSpace: 'nowrap' }}>{live.calledToBay ?? booking.bayName}</span>
          </>
        ),
        text: `Called${live.calledAt ? ` at ${at(live.calledAt)}` : ''}. Drive to the bay now.`,
        isCalled: true,
      };
    case 'completed':
      return { color: 'gray', icon: <IconCircleCheck size={28} aria-hidden />, title: 'Visit completed', text: 'You have checked out. Thank you for your visit.' };
    default:
      return null;
  }
}

export function DriverLiveStatus({ booking }: { booking: ManagedBooking }) {
  const state = booking.live ? stateOf(booking, booking.live) : null;
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
