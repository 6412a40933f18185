import { Alert, Badge, Button, Card, Container, Divider, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCalendarTime, IconInfoCircle, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { VEHICLE_TYPES } from '../../../../domain/enums';
import { useT } from '../../../i18n/index';
import type { Translate } from '../../../i18n/index';
import { useTranslateMessage } from '../../../i18n/validation';
import { ApiError } from '../../../lib/api-client';
import { useManagedBooking } from '../api/get-managed-booking';
import type { ManagedBooking } from '../api/types';
import { ArrivalQr } from '../components/arrival-qr';
import { CancelBookingModal } from '../components/cancel-booking-modal';
import { DriverLiveStatus } from '../components/driver-live-status';
import { HelpContacts } from '../components/help-contacts';
import { MoveBookingPanel } from '../components/move-booking-panel';
import { PageHeader } from '../components/page-header';
import { RunningLatePanel } from '../components/running-late-panel';
import { bookingStatusColor } from '../utils/booking-status';
import { alertStyles } from '../utils/styles';
import { formatSiteTime, formatSiteTimeRange } from '../utils/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useManageLive } from '../hooks/use-manage-live';
import driverCatalogue from 'virtual:i18n-namespace/driver';
import { I18nNamespace } from '../../../i18n/index';
import { PageLoader } from '../../../components/ui/page-loader';

/** The statuses with their own words for why a booking can no longer be changed online (portal `manage.final.*`). */
const FINAL_STATES = ['cancelled', 'declined', 'completed', 'no_show', 'checked_in', 'in_progress', 'overstay'];

/** Statuses after which nothing more happens at the gate: no live updates. */
const FINISHED_STATUSES = ['cancelled', 'declined', 'completed', 'no_show'];
/** Statuses of a booking not yet at the gate: the arrival code is shown for checking in. */
const ARRIVING_STATUSES = ['pending', 'approved'];

function vehicleText(b: ManagedBooking, t: Translate): string {
  const type = b.vehicleType ? ((VEHICLE_TYPES as readonly string[]).includes(b.vehicleType) ? t(`vehicleType.${b.vehicleType}`) : b.vehicleType) : null;
  return [type, b.vehicleRegistration].filter(Boolean).join(', ') || t('manage.notGiven');
}

function BookingDetails({ booking }: { booking: ManagedBooking }) {
  const { t, language } = useT('portal');
  const rows: Array<[string, string]> = [
    [t('manage.company'), booking.tenantName],
    ...(booking.contactName ? ([[t('manage.contact'), booking.contactName]] as Array<[string, string]>) : []),
    [t('manage.site'), booking.siteName],
    [t('manage.bay'), booking.bayName],
    [t('manage.dateTime'), formatSiteTimeRange(booking.startTime, booking.endTime, booking.timeZone, language)],
    [t('manage.duration'), t('manage.minutes', { count: booking.durationMin })],
    [t('manage.vehicle'), vehicleText(booking, t)],
  ];
  return (
    <Table variant="vertical" withTableBorder fz="sm" aria-label={t('manage.details')}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={{ base: '40%', sm: '30%' }}>{label}</Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function LinkProblem({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useT('portal');
  return (
    <Stack gap="lg">
      <Alert color="red" variant="light" styles={alertStyles} title={title} icon={<IconAlertCircle size={20} aria-hidden />}>
        {children}
      </Alert>
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h5" mb="sm">
          {t('manage.contacts')}
        </Title>
        <HelpContacts />
      </Card>
      <Group>
        <Button component={Link} to="/book">
          {t('manage.toPortal')}
        </Button>
      </Group>
    </Stack>
  );
}

/** /book/manage/:token: the haulier's private view of one booking, to cancel or move it. */
function ManageBookingPage() {
  const { t } = useT('portal');
  const translateMessage = useTranslateMessage();
  usePageTitle(t('manage.pageTitle'));
  const { token = '' } = useParams();
  const query = useManagedBooking(token);
  const [isCancelOpen, setCancelOpen] = useState(false);
  const [isMoving, setMoving] = useState(false);
  // The driver's live page on the day: the socket follows this one booking until its visit is over.
  const isLive = !!query.data?.live && !FINISHED_STATUSES.includes(query.data.status);
  useManageLive(token, isLive);

  let content: React.ReactNode;
  if (query.isPending) {
    content = (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm">{t('manage.loading')}</Text>
      </Group>
    );
  } else if (query.isError) {
    const isNotFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 410);
    content = isNotFound ? (
      <LinkProblem title={t('manage.invalidTitle')}>{t('manage.invalidText')}</LinkProblem>
    ) : (
      <LinkProblem title={t('manage.loadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{translateMessage(query.error.message)}</Text>
          <Button size="xs" variant="default" onClick={() => void query.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Stack>
      </LinkProblem>
    );
  } else {
    const booking = query.data;
    const isChangeable = booking.canCancel || booking.canReschedule;
    // On the day the code is what the driver needs first: right under the live state.
    const arrivalCard = ARRIVING_STATUSES.includes(booking.status) ? (
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="arrival-code-title">
        <Title order={2} size="h4" mb={4} id="arrival-code-title">
          {t('manage.arrivalCode')}
        </Title>
        <Text size="sm" c="gray.7" mb="md">
          {t('manage.arrivalHelp')}
        </Text>
        <ArrivalQr code={booking.arrivalCode} />
      </Card>
    ) : null;
    content = (
      <Stack gap="lg">
        <DriverLiveStatus booking={booking} />
        {booking.live ? arrivalCard : null}
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" align="flex-start" mb="md" wrap="wrap" gap="sm">
            <div>
              <Text size="sm" c="gray.7">
                {t('manage.reference')}
              </Text>
              <Title order={2} size="h3">
                {booking.reference}
              </Title>
            </div>
            <Badge size="lg" variant="dot" color={bookingStatusColor(booking.status)} data-testid="booking-status">
              {t(`status.${booking.status}`)}
            </Badge>
          </Group>
          <BookingDetails booking={booking} />
          <Text size="xs" c="gray.7" mt="xs">
            {t('manage.localTimes', {
              timeZone: booking.timeZone,
              time: formatSiteTime(new Date(new Date(booking.startTime).getTime() - 15 * 60_000).toISOString(), booking.timeZone),
            })}
          </Text>

          {isChangeable && !isMoving ? (
            <>
              <Divider my="md" />
              <Group gap="sm">
                {booking.canReschedule ? (
                  <Button leftSection={<IconCalendarTime size={18} aria-hidden />} onClick={() => setMoving(true)}>
                    {t('manage.move')}
                  </Button>
                ) : null}
                {booking.canCancel ? (
                  <Button color="red.9" variant="outline" leftSection={<IconX size={18} aria-hidden />} onClick={() => setCancelOpen(true)}>
                    {t('manage.cancel')}
                  </Button>
                ) : null}
              </Group>
            </>
          ) : null}
          {!isChangeable ? (
            <Alert mt="md" color="gray" variant="light" styles={alertStyles} icon={<IconInfoCircle size={18} aria-hidden />} role="status">
              {t(FINAL_STATES.includes(booking.status) ? `manage.final.${booking.status}` : 'manage.final.other')}
            </Alert>
          ) : null}
        </Card>

        {!booking.live ? arrivalCard : null}

        <RunningLatePanel token={token} booking={booking} />

        {isMoving && booking.canReschedule ? (
          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="move-booking-title">
            <Title order={2} size="h4" mb="sm" id="move-booking-title">
              {t('manage.move')}
            </Title>
            <MoveBookingPanel token={token} booking={booking} onDone={() => setMoving(false)} />
          </Card>
        ) : null}

        <CancelBookingModal token={token} booking={booking} opened={isCancelOpen} onClose={() => setCancelOpen(false)} />
      </Stack>
    );
  }

  return (
    <Container size="md" py="xl">
      <PageHeader title={t('manage.title')} description={t('manage.description')} />
      {content}
    </Container>
  );
}

/** The page with the driver's live status texts (the driver namespace) in the haulier's language. */
export default function ManageBookingPageRoute() {
  return (
    <I18nNamespace catalogue={driverCatalogue} fallback={<PageLoader />}>
      <ManageBookingPage />
    </I18nNamespace>
  );
}
