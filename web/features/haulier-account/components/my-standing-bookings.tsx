import { Alert, Badge, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { HaulierStandingBooking } from '../../../../domain/haulier-accounts';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../i18n/index';
import { useHaulierStandingBookings } from '../api/standing-bookings';
import { formatCalendarDate, weekdayName } from '../utils/format-site-time';

const STATUS_COLOR: Record<HaulierStandingBooking['status'], string> = { requested: 'yellow', active: 'green', declined: 'red', cancelled: 'gray', ended: 'gray' };

/** The haulier's standing requests and series (every organization), with their status, and the way to ask for one. */
export function MyStandingBookings() {
  const { t, language } = useT('account');
  const standing = useHaulierStandingBookings();

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <IconRepeat size={22} aria-hidden color="var(--mantine-primary-color-filled)" />
          <Title order={2} size="h4">
            {t('standing.title')}
          </Title>
        </Group>
        <Button component={Link} to="/book/account/standing/new" size="xs" variant="light">
          {t('standing.request')}
        </Button>
      </Group>
      {standing.isPending ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('common.loading')}</Text>
        </Group>
      ) : standing.isError ? (
        <Alert color="red" variant="light" title={t('standing.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(standing.error, t('standing.loadFailed'))}</Text>
            <Button size="xs" variant="default" onClick={() => void standing.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : standing.data.items.length === 0 ? (
        <Text size="sm">{t('standing.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" striped aria-label={t('standing.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('bookings.organization')}</Table.Th>
                <Table.Th>{t('standing.schedule')}</Table.Th>
                <Table.Th>{t('bookings.vehicle')}</Table.Th>
                <Table.Th>{t('bookings.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {standing.data.items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {item.organizationName}
                    </Text>
                    <Text size="xs" c="gray.7">
                      {item.siteName}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {t('standing.scheduleLine', {
                        days: item.weekdays.map((day) => weekdayName(day, language)).join(', '),
                        start: item.startLocal,
                        minutes: item.durationMin,
                      })}
                    </Text>
                    <Text size="xs" c="gray.7">
                      {item.endsOn
                        ? t('standing.fromUntil', { from: formatCalendarDate(item.startsOn, language), until: formatCalendarDate(item.endsOn, language) })
                        : t('standing.fromOpenEnded', { from: formatCalendarDate(item.startsOn, language) })}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{item.vehicleRegistration}</Text>
                    <Text size="xs" c="gray.7">
                      {item.tsrNumber}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[item.status]} variant="light" styles={{ root: { color: 'var(--mantine-color-dark-7)' } }}>
                      {t(`standingStatus.${item.status}`)}
                    </Badge>
                    {item.decisionReason && (item.status === 'declined' || item.status === 'cancelled') ? (
                      <Text size="xs" c="gray.7" mt={4}>
                        {item.decisionReason}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
