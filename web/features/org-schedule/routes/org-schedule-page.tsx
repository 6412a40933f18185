import { ActionIcon, Alert, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconChevronLeft, IconChevronRight, IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDay } from '../../../../domain/day-notice';
import type { ScheduleBooking } from '../../../../domain/org-schedule';
import { isCalendarDate } from '../../../../domain/booking-request';
import { DateField } from '../../../components/ui/date-field';
import { PageLoader } from '../../../components/ui/page-loader';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useOrgSchedule } from '../api/get-org-schedule';
import { useRescheduleBooking } from '../api/reschedule-booking';
import { BookingDetailsDrawer, type RescheduleChoice } from '../components/booking-details-drawer';
import { ScheduleLegend } from '../components/schedule-legend';
import { ScheduleTimeline, type MoveRequest, type PendingMove } from '../components/schedule-timeline';
import { buildTimeline, stepDate, targetInstant, todayIn, viewRange, type ScheduleView } from '../utils/timeline';

// /org/schedule: the selected site's day or week, one lane per bay. The view and the day live in
// the address (?view=week&date=2026-11-25), so a view can be shared and the back button works.

const MINUTE_MS = 60_000;

/** Ticks every minute, for the current-time line. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), MINUTE_MS);
    return () => window.clearInterval(id);
  }, []);
  return now;
}

export default function OrgSchedulePage() {
  usePageTitle('Schedule');
  const { selectedOrg, selectedSite, isLoadingSites, sites, selectSite } = useOrgSelection();
  // A schedule is one site's: with "All sites" in the header it opens on the first site (and the
  // header says so) instead of asking for one.
  const firstSiteId = sites[0]?.id;
  useEffect(() => {
    if (selectedOrg && !selectedSite && firstSiteId) selectSite(firstSiteId);
  }, [selectedOrg, selectedSite, firstSiteId, selectSite]);
  const [params, setParams] = useSearchParams();
  const now = useNow();
  const timeZone = selectedSite?.timeZone ?? 'UTC';
  const today = todayIn(timeZone, now);
  const view: ScheduleView = params.get('view') === 'week' ? 'week' : 'day';
  const requested = params.get('date');
  const date = requested && isCalendarDate(requested) ? requested : today;
  const { from, to } = viewRange(view, date);

  const orgId = selectedOrg?.id;
  const scheduleQuery = useOrgSchedule({ orgId, siteId: selectedSite?.id, from, to });
  const reschedule = useRescheduleBooking(orgId ?? '');
  const [pendingMove, setPendingMove] = useState<PendingMove | null>(null);
  const [openBookingId, setOpenBookingId] = useState<string | null>(null);

  // The answer for the range on screen (not the previous range kept while the next one loads).
  const schedule = scheduleQuery.data && scheduleQuery.data.site.id === selectedSite?.id ? scheduleQuery.data : undefined;
  const timeline = useMemo(() => (schedule ? buildTimeline(schedule, from, to) : null), [schedule, from, to]);
  const openBooking = schedule?.bookings.find((b) => b.id === openBookingId) ?? null;

  const go = (changes: { view?: ScheduleView; date?: string }) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (changes.view) next.set('view', changes.view);
        if (changes.date) next.set('date', changes.date);
        return next;
      },
      { replace: true },
    );

  /** Sends a move to the server; resolves when the schedule shows the answer, rejects with its message. */
  const move = async (booking: ScheduleBooking, choice: RescheduleChoice) => {
    const moved = await reschedule.mutateAsync({ bookingId: booking.id, version: booking.version, ...choice });
    const bayName = schedule?.bays.find((b) => b.id === moved.bayId)?.name ?? moved.bayName;
    toast.success('Booking rescheduled', `${moved.tsrNumber} now starts ${formatDay(choice.date)} at ${choice.slot}, bay ${bayName}.`);
  };

  const onDrop = ({ booking, bay, target }: MoveRequest) => {
    if (!timeline) return;
    const start = targetInstant(timeline, target);
    const durationMs = Date.parse(booking.endTime) - Date.parse(booking.startTime);
    setPendingMove({ bookingId: booking.id, bayId: bay.id, startTime: start.toISOString(), endTime: new Date(start.getTime() + durationMs).toISOString() });
    move(booking, { date: target.date, slot: target.slot, bayId: bay.id })
      .catch((error: unknown) => toast.error('Booking not moved', errorMessage(error, 'The booking could not be moved.')))
      .finally(() => setPendingMove(null));
  };

  const heading = (
    <Title order={1} size="h2">
      Schedule
    </Title>
  );

  if (!selectedOrg || !selectedSite) {
    return (
      <Stack gap="md">
        {heading}
        {isLoadingSites || (selectedOrg && firstSiteId) ? (
          <PageLoader minHeight={200} />
        ) : (
          <Paper withBorder p="lg" radius="md">
            <Group gap="sm">
              <IconInfoCircle size={20} aria-hidden />
              <Text>{selectedOrg ? 'This organization has no active site yet: add one in Settings › Sites & hours to see its schedule.' : 'Choose an organization and a site in the header to see a schedule.'}</Text>
            </Group>
          </Paper>
        )}
      </Stack>
    );
  }

  const rangeLabel = view === 'day' ? `${formatDay(from).slice(0, 3)} ${formatDay(from, true)}` : `${formatDay(from)} – ${formatDay(to, true)}`;
  const unit = view === 'day' ? 'day' : 'week';

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          {heading}
          <Text c="gray.7" size="sm">
            {selectedSite.name} · times in {timeZone}
          </Text>
        </div>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label="View"
            value={view}
            onChange={(value) => go({ view: value as ScheduleView })}
            data={[
              { value: 'day', label: 'Day' },
              { value: 'week', label: 'Week' },
            ]}
          />
          <Group gap={4}>
            <ActionIcon variant="default" size="lg" aria-label={`Previous ${unit}`} onClick={() => go({ date: stepDate(view, date, -1) })}>
              <IconChevronLeft size={18} aria-hidden />
            </ActionIcon>
            <Button variant="default" onClick={() => go({ date: today })} disabled={date === today}>
              Today
            </Button>
            <ActionIcon variant="default" size="lg" aria-label={`Next ${unit}`} onClick={() => go({ date: stepDate(view, date, 1) })}>
              <IconChevronRight size={18} aria-hidden />
            </ActionIcon>
          </Group>
          <DateField label="Go to date" value={date} onChange={(d) => d && isCalendarDate(d) && go({ date: d })} w={170} />
        </Group>
      </Group>

      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600} aria-live="polite">
          {rangeLabel}
        </Text>
        <ScheduleLegend />
      </Group>

      {scheduleQuery.isError && !schedule ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="The schedule could not be loaded">
          <Group justify="space-between">
            <Text size="sm">{errorMessage(scheduleQuery.error, 'Failed to load the schedule')}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void scheduleQuery.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : !schedule || !timeline ? (
        <PageLoader minHeight={240} />
      ) : schedule.bays.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text>{selectedSite.name} has no active bays yet. Add bays under Bays to schedule bookings on them.</Text>
        </Paper>
      ) : (
        <>
          <ScheduleTimeline
            schedule={schedule}
            timeline={timeline}
            view={view}
            now={now}
            today={today}
            pendingMove={pendingMove}
            onOpen={(b) => setOpenBookingId(b.id)}
            onMove={onDrop}
          />
          <Text size="sm" c="gray.7" role="status">
            {schedule.bookings.length === 0
              ? `No bookings at ${selectedSite.name} this ${unit}.`
              : `${schedule.bookings.length} booking${schedule.bookings.length === 1 ? '' : 's'} this ${unit}. Drag a pending or approved booking to another time or bay, or open it to reschedule.`}
            {scheduleQuery.isFetching ? ' Updating…' : ''}
          </Text>
        </>
      )}

      {schedule ? (
        <BookingDetailsDrawer
          schedule={schedule}
          booking={openBooking}
          onClose={() => setOpenBookingId(null)}
          onReschedule={async (booking, choice) => {
            await move(booking, choice);
            setOpenBookingId(null);
          }}
        />
      ) : null}
    </Stack>
  );
}
