import { Alert, Anchor, Badge, Button, Group, List, Loader, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AffectedBooking, AffectedResolution } from '../../../../../domain/affected-bookings';
import { organizationTimeZone, summarizeWeekHours, type OrgSite, type UpdateSiteResult } from '../../../../../domain/org-sites';
import { AffectedBookingsDialog, affectedBookingsOf } from '../../../../components/bookings/affected-bookings-dialog';
import { ApiError, errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { useOrgSelection } from '../../../org/hooks/use-org-selection';
import { useCancelListedBookings, useDeactivateSite, useOrgSites, useReactivateSite } from '../../api/sites-api';
import { HolidaysDrawer } from './holidays-drawer';
import { SiteFormModal } from './site-form-modal';

// Settings › Sites & hours: the organization's sites with their hours, time zone and slot rules;
// add and edit them, close one for holidays, deactivate or reactivate one. Changes never move a
// booking: those an hours change leaves outside are listed, to keep, cancel or reschedule.

function formatWhen(booking: Pick<AffectedBooking, 'startTime' | 'endTime'>, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day.format(new Date(booking.startTime))}–${time.format(new Date(booking.endTime))}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Near-black text on a tint, the colour in the tint and a dot (as the booking status badges). */
function SiteStatusBadge({ isActive }: { isActive: boolean }) {
  const color = isActive ? 'green' : 'gray';
  return (
    <Badge
      color={color}
      variant="light"
      styles={{ root: { color: 'var(--mantine-color-dark-7)', overflow: 'visible', flexShrink: 0, minWidth: 'max-content' }, label: { overflow: 'visible' } }}
      leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${color}-7)` }} />}
    >
      {isActive ? 'Active' : 'Inactive'}
    </Badge>
  );
}

type StatusChange = { site: OrgSite; kind: 'deactivate' | 'reactivate' };
type OutsideHours = { site: OrgSite; bookings: AffectedBooking[]; isAsking: boolean };

export function SitesSection() {
  const { selectedOrg } = useOrgSelection();
  if (!selectedOrg) {
    return <Text c="dimmed">Choose an organization to manage its sites.</Text>;
  }
  return <SitesManager orgId={selectedOrg.id} />;
}

function SitesManager({ orgId }: { orgId: string }) {
  const sites = useOrgSites(orgId);
  const deactivate = useDeactivateSite(orgId);
  const reactivate = useReactivateSite(orgId);
  const cancelListed = useCancelListedBookings(orgId);
  const [form, setForm] = useState<{ site: OrgSite | null } | null>(null);
  const [holidaySite, setHolidaySite] = useState<OrgSite | null>(null);
  const [statusChange, setStatusChange] = useState<StatusChange | null>(null);
  const [deactivateAffected, setDeactivateAffected] = useState<{ site: OrgSite; bookings: AffectedBooking[] } | null>(null);
  const [outside, setOutside] = useState<OutsideHours | null>(null);

  const deactivated = (site: OrgSite, outcomes: { outcome: string }[]) => {
    const cancelled = outcomes.filter((o) => o.outcome === 'cancelled').length;
    toast.success('Site deactivated', `${site.name} no longer takes bookings${cancelled > 0 ? `; ${plural(cancelled, 'booking')} cancelled` : ''}.`);
  };

  const confirmStatusChange = () => {
    if (!statusChange) return;
    const { site, kind } = statusChange;
    if (kind === 'reactivate') {
      reactivate.mutate(site.id, {
        onSuccess: () => toast.success('Site reactivated', `${site.name} takes bookings again.`),
        onError: (error) => toast.error('Not reactivated', errorMessage(error, 'The site could not be reactivated.')),
        onSettled: () => setStatusChange(null),
      });
      return;
    }
    deactivate.mutate(
      { siteId: site.id },
      {
        onSuccess: (result) => deactivated(site, result.outcomes),
        onError: (error) => {
          const bookings = affectedBookingsOf(error);
          if (bookings) setDeactivateAffected({ site, bookings });
          else toast.error('Not deactivated', errorMessage(error, 'The site could not be deactivated.'));
        },
        onSettled: () => setStatusChange(null),
      },
    );
  };

  const resolveDeactivation = async (resolution: AffectedResolution) => {
    if (!deactivateAffected) return;
    const result = await deactivate.mutateAsync({ siteId: deactivateAffected.site.id, resolution });
    deactivated(deactivateAffected.site, result.outcomes);
    setDeactivateAffected(null);
  };

  const onUpdated = (_site: OrgSite, result: UpdateSiteResult) => {
    setOutside(result.outsideHours.length > 0 ? { site: result.site, bookings: result.outsideHours, isAsking: true } : null);
  };

  const resolveOutside = async (resolution: AffectedResolution) => {
    if (!outside) return;
    if (resolution.action !== 'cancel') {
      // Kept: they stay listed below, each a link to reschedule it.
      setOutside({ ...outside, isAsking: false });
      return;
    }
    const result = await cancelListed.mutateAsync({ bookingIds: outside.bookings.map((b) => b.id), reason: resolution.reason });
    const cancelled = result.outcomes.filter((o) => o.outcome === 'cancelled').length;
    toast.success('Bookings cancelled', `${plural(cancelled, 'booking')} cancelled; the hauliers have been e-mailed.`);
    const left = new Set(result.outcomes.filter((o) => o.outcome !== 'cancelled').map((o) => o.id));
    const remaining = outside.bookings.filter((b) => left.has(b.id));
    setOutside(remaining.length > 0 ? { ...outside, bookings: remaining, isAsking: false } : null);
  };

  const items = sites.data?.items ?? [];
  const isChanging = deactivate.isPending || reactivate.isPending;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            Sites &amp; hours
          </Title>
          <Text size="sm" c="dimmed">
            Each site’s opening hours, time zone and booking rules. The booking portal follows every change at once.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ site: null })}>
          Add site
        </Button>
      </Group>

      {outside && !outside.isAsking ? (
        <Alert
          color="yellow"
          styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
          title={`${plural(outside.bookings.length, 'booking')} outside the new opening hours at ${outside.site.name}`}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setOutside(null)}
        >
          <Text size="sm" mb="xs">
            They were kept as they are. Open one to reschedule it.
          </Text>
          <List size="sm" spacing={4}>
            {outside.bookings.map((b) => (
              <List.Item key={b.id}>
                <Anchor component={Link} to={`/org/bookings?booking=${encodeURIComponent(b.id)}`} size="sm">
                  {b.tsrNumber}
                </Anchor>{' '}
                · {b.tenantName} · {formatWhen(b, outside.site.timeZone)} · bay {b.bayName}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}

      <Paper withBorder radius="md">
        {sites.isLoading ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading sites" />
          </Group>
        ) : sites.isError ? (
          <Alert color="red" m="md" title="Could not load the sites">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{sites.error instanceof ApiError ? sites.error.message : 'Try again in a moment.'}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void sites.refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        ) : items.length === 0 ? (
          <Text c="dimmed" p="xl" ta="center">
            No sites yet. Add your first site, then its bays, to start taking bookings.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={980}>
            <Table verticalSpacing="sm" aria-label="Sites">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Site</Table.Th>
                  <Table.Th>Time zone</Table.Th>
                  <Table.Th>Opening hours</Table.Th>
                  <Table.Th ta="right">Bays</Table.Th>
                  <Table.Th ta="right">Upcoming bookings</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((site) => (
                  <Table.Tr key={site.id} data-site={site.name}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {site.name}
                      </Text>
                      {site.address ? (
                        <Text size="xs" c="dimmed" lineClamp={2}>
                          {site.address}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{site.timeZone.replace(/_/g, ' ')}</Text>
                      <Text size="xs" c="dimmed">
                        Slots every {site.slotIntervalMin} min · {site.bookingHorizonDays} days ahead
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={0} aria-label={`Opening hours of ${site.name}`}>
                        {summarizeWeekHours(site.operatingHours)
                          .split(' · ')
                          .map((line) => (
                            <Text size="xs" key={line} style={{ whiteSpace: 'nowrap' }}>
                              {line}
                            </Text>
                          ))}
                      </Stack>
                    </Table.Td>
                    <Table.Td ta="right">{site.activeBays}</Table.Td>
                    <Table.Td ta="right">{site.upcomingBookings}</Table.Td>
                    <Table.Td>
                      <SiteStatusBadge isActive={site.active} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Button size="compact-sm" variant="light" aria-label={`Edit ${site.name}`} onClick={() => setForm({ site })}>
                          Edit
                        </Button>
                        <Button size="compact-sm" variant="default" aria-label={`Holiday closures of ${site.name}`} onClick={() => setHolidaySite(site)}>
                          Closures
                        </Button>
                        {site.active ? (
                          <Button size="compact-sm" variant="subtle" color="red" aria-label={`Deactivate ${site.name}`} onClick={() => setStatusChange({ site, kind: 'deactivate' })}>
                            Deactivate
                          </Button>
                        ) : (
                          <Button size="compact-sm" variant="default" aria-label={`Reactivate ${site.name}`} onClick={() => setStatusChange({ site, kind: 'reactivate' })}>
                            Reactivate
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>

      <SiteFormModal orgId={orgId} opened={!!form} site={form?.site ?? null} defaultTimeZone={organizationTimeZone(sites.data?.items ?? [])} onClose={() => setForm(null)} onUpdated={onUpdated} />

      <HolidaysDrawer orgId={orgId} site={holidaySite} onClose={() => setHolidaySite(null)} />

      <Modal
        opened={!!statusChange}
        onClose={() => setStatusChange(null)}
        title={statusChange ? `${statusChange.kind === 'deactivate' ? 'Deactivate' : 'Reactivate'} ${statusChange.site.name}?` : ''}
        centered
      >
        {statusChange ? (
          <Stack gap="md">
            <Text size="sm">
              {statusChange.kind === 'deactivate'
                ? `${statusChange.site.name} will stop taking bookings: the booking portal will no longer offer it.${
                    statusChange.site.upcomingBookings > 0 ? ` It has ${plural(statusChange.site.upcomingBookings, 'upcoming booking')}: you will choose next whether to keep or cancel them.` : ''
                  } You can reactivate it at any time.`
                : `${statusChange.site.name} will take bookings again under its current hours and rules.`}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setStatusChange(null)} disabled={isChanging}>
                Cancel
              </Button>
              <Button color={statusChange.kind === 'deactivate' ? 'red' : 'green'} loading={isChanging} onClick={confirmStatusChange}>
                {statusChange.kind === 'deactivate' ? 'Deactivate site' : 'Reactivate site'}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>

      <AffectedBookingsDialog
        opened={!!deactivateAffected}
        title={`Deactivating ${deactivateAffected?.site.name ?? 'the site'}`}
        description="These upcoming bookings are at this site. No other site can take them: keep them (the site still stops taking new bookings) or cancel them with a reason the hauliers are sent."
        affected={deactivateAffected?.bookings ?? []}
        timeZone={deactivateAffected?.site.timeZone}
        actions={['keep', 'cancel']}
        onResolve={resolveDeactivation}
        onClose={() => setDeactivateAffected(null)}
      />

      <AffectedBookingsDialog
        opened={!!outside?.isAsking}
        title={`New hours for ${outside?.site.name ?? 'the site'}`}
        description="The new hours are saved. These upcoming bookings now lie outside opening hours and have not been moved: keep them (you can reschedule each from the list that follows) or cancel them with a reason the hauliers are sent."
        affected={outside?.bookings ?? []}
        timeZone={outside?.site.timeZone}
        actions={['keep', 'cancel']}
        onResolve={resolveOutside}
        onClose={() => outside && setOutside({ ...outside, isAsking: false })}
      />
    </Stack>
  );
}
