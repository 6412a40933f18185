import { Alert, Anchor, Button, Container, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBan, IconCalendarStats, IconCalendarX, IconClockCheck, IconLockOpen, IconPencil, IconUserX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { BOOKING_WINDOW_MIN } from '../../../../domain/constants';
import type { TenantDetail } from '../../../../domain/org-tenants';
import { paths } from '../../../app/paths';
import { StatCard } from '../../../components/ui/stat-card';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useTenant } from '../api/org-tenants-api';
import { BlockTenantModal } from '../components/block-tenant-modal';
import { TenantStatusBadge } from '../components/tenant-badges';
import { TenantBookings } from '../components/tenant-bookings';
import { TenantFormModal } from '../components/tenant-form-modal';
import { alertStyles, formatRate } from '../utils/tenant-display';

// /org/tenants/:tenantId: one tenant — its booking policy, its figures and its bookings.

function PolicyTable({ tenant }: { tenant: TenantDetail }) {
  const rows: [string, string][] = [
    ['Contact e-mails', tenant.contactEmails.join(', ') || '—'],
    ['Phone', tenant.phone ?? '—'],
    ['E-mail domains', tenant.emailDomains.join(', ') || '—'],
    ['Approval', tenant.autoApprove ? 'Approved automatically' : "Reviewed by your team (unless the organization's default approves)"],
    ['Sites', tenant.allowedSites ? tenant.allowedSites.map((s) => s.name).join(', ') || 'None' : 'Every site'],
    ['Most bookings a day', tenant.maxBookingsPerDay === null ? 'No limit' : String(tenant.maxBookingsPerDay)],
    ['Notes', tenant.notes ?? '—'],
  ];
  return (
    <Table aria-label="Booking policy" variant="vertical" layout="fixed" withRowBorders>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={190}>{label}</Table.Th>
            <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export default function TenantPage() {
  const { tenantId } = useParams();
  const { selectedOrg } = useOrgSelection();
  const tenant = useTenant(selectedOrg?.id, tenantId);
  usePageTitle(tenant.data?.name ?? 'Tenant');
  const [isEditing, setEditing] = useState(false);
  const [isBlocking, setBlocking] = useState(false);

  const back = (
    <Anchor component={Link} to={paths.org.tenants} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        All tenants
      </Group>
    </Anchor>
  );

  if (!selectedOrg || tenant.isLoading) {
    return (
      <Container size="xl" py="md">
        {back}
        <Group justify="center" py="xl">
          {selectedOrg ? <Loader aria-label="Loading tenant" /> : <Text c="dimmed">Choose an organization to see its tenants.</Text>}
        </Group>
      </Container>
    );
  }
  if (tenant.isError || !tenant.data) {
    const isMissing = tenant.error instanceof ApiError && tenant.error.status === 404;
    return (
      <Container size="xl" py="md">
        <Stack gap="md">
          {back}
          <Alert styles={alertStyles} color={isMissing ? 'gray' : 'red'} title={isMissing ? 'Tenant not found' : 'Could not load the tenant'}>
            {isMissing ? 'This tenant does not exist in this organization.' : errorMessage(tenant.error, 'Try again in a moment.')}
          </Alert>
        </Stack>
      </Container>
    );
  }

  const t = tenant.data;
  const { figures } = t;
  const canEdit = selectedOrg.role !== 'dockmaster';

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        {back}
        <Group justify="space-between" align="flex-start">
          <div>
            <Group gap="sm" align="center">
              <Title order={1} size="h2">
                {t.name}
              </Title>
              <TenantStatusBadge status={t.status} />
            </Group>
            <Text size="sm" c="dimmed">
              Tenant since {new Date(t.createdAt).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}
            </Text>
          </div>
          {canEdit ? (
            <Group gap="sm">
              <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button
                variant={t.status === 'active' ? 'outline' : 'filled'}
                color={t.status === 'active' ? 'red.8' : undefined}
                leftSection={t.status === 'active' ? <IconBan size={16} aria-hidden /> : <IconLockOpen size={16} aria-hidden />}
                onClick={() => setBlocking(true)}
              >
                {t.status === 'active' ? 'Block' : 'Unblock'}
              </Button>
            </Group>
          ) : null}
        </Group>

        {t.status === 'blocked' ? (
          <Alert styles={alertStyles} color="red" title="Blocked: portal requests from this tenant are refused" role="status">
            {t.blockedReason ? `Reason: ${t.blockedReason}` : 'No reason was recorded.'}
          </Alert>
        ) : null}

        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          <StatCard
            label="Bookings"
            value={
              <>
                {figures.bookings}
                <Text span size="sm" c="dimmed" fw={400}>
                  {' '}
                  · {figures.upcoming} upcoming
                </Text>
              </>
            }
            icon={<IconCalendarStats size={20} />}
          />
          <StatCard
            label={`On time (±${BOOKING_WINDOW_MIN} min)`}
            value={
              <>
                {formatRate(figures.onTimeRate)}
                <Text span size="sm" c="dimmed" fw={400}>
                  {' '}
                  {figures.arrivals ? `· ${figures.onTimeArrivals} of ${figures.arrivals} arrivals` : '· no arrivals yet'}
                </Text>
              </>
            }
            icon={<IconClockCheck size={20} />}
          />
          <StatCard label="No-shows" value={figures.noShows} icon={<IconUserX size={20} />} />
          <StatCard label="Cancellations" value={figures.cancellations} icon={<IconCalendarX size={20} />} />
        </SimpleGrid>

        <Paper withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="sm">
            Booking policy
          </Title>
          <PolicyTable tenant={t} />
        </Paper>

        <TenantBookings orgId={selectedOrg.id} tenantId={t.id} />
      </Stack>

      <TenantFormModal orgId={selectedOrg.id} opened={isEditing} tenant={t} onClose={() => setEditing(false)} />
      <BlockTenantModal orgId={selectedOrg.id} tenant={isBlocking ? t : null} onClose={() => setBlocking(false)} />
    </Container>
  );
}
