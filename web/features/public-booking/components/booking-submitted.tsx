import { Anchor, Button, Card, Group, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { REVIEW_PROMISE_HOURS } from '../../../../domain/constants';
import type { CreatedBooking } from '../api/types';
import { ArrivalQr } from './arrival-qr';
import { formatSiteTimeRange } from '../utils/format';
import { useT } from '../../../i18n/index';

/** The in-app path of the manage link, whatever host the server put in front of it. */
function managePathOf(manageUrl: string | null | undefined): string | null {
  if (!manageUrl) return null;
  try {
    const path = new URL(manageUrl, window.location.origin).pathname;
    return path.startsWith('/book/manage/') ? path : null;
  } catch {
    return null;
  }
}

/** What the haulier sees once a request has been accepted (spec §2). */
export function BookingSubmitted({ booking, tsrNumber }: { booking: CreatedBooking; tsrNumber: string }) {
  const managePath = managePathOf(booking.manageUrl);
  const { t, language } = useT('portal');
  return (
    <Card withBorder radius="md" padding="xl" maw={640} mx="auto">
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon color="green" size={64} radius="xl" variant="light">
          <IconCircleCheck size={40} aria-hidden />
        </ThemeIcon>
        <Title order={1} size="h2">
          {t('submitted.title')}
        </Title>
        {booking.status === 'pending' ? (
          <Text>{t('submitted.pending', { hours: REVIEW_PROMISE_HOURS })}</Text>
        ) : (
          <Text>{t('submitted.approved')}</Text>
        )}

        <Table withTableBorder variant="vertical" fz="sm" ta="left" w="100%" aria-label={t('submitted.table')}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w="40%">{t('submitted.reference')}</Table.Th>
              <Table.Td>{booking.reference}</Table.Td>
            </Table.Tr>
            {tsrNumber !== booking.reference ? (
              <Table.Tr>
                <Table.Th>{t('submitted.tsrNumber')}</Table.Th>
                <Table.Td>{tsrNumber}</Table.Td>
              </Table.Tr>
            ) : null}
            <Table.Tr>
              <Table.Th>{t('submitted.siteAndBay')}</Table.Th>
              <Table.Td>
                {booking.siteName}, {booking.bayName}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('submitted.time')}</Table.Th>
              <Table.Td>{formatSiteTimeRange(booking.startTime, booking.endTime, booking.timeZone, language)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('submitted.status')}</Table.Th>
              <Table.Td>{t(`status.${booking.status}`)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <ArrivalQr code={booking.arrivalCode} />
        <Text size="sm" c="gray.7">
          {t('submitted.showCode')}
        </Text>
        <Text size="sm" c="gray.7">
          {t('submitted.emailContains')}
          {booking.documents ? ` ${t('submitted.documents', { count: booking.documents })}` : ''}
        </Text>
        {managePath ? (
          <Anchor component={Link} to={managePath} size="sm">
            {t('submitted.manageLink')}
          </Anchor>
        ) : null}

        <Group justify="center" gap="sm" mt="sm">
          <Button component={Link} to="/book">
            {t('submitted.another')}
          </Button>
          <Button component={Link} to="/" variant="default">
            {t('submitted.home')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
