import { Anchor, Badge, Button, Container, Group, Modal, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { describeStandingSchedule, STANDING_STATUS_LABELS, type StandingBooking } from '../../../../domain/standing-bookings';
import { QueryStatus } from '../../../components/ui/query-status';
import { usePageTitle } from '../../../lib/use-page-title';
import { toast } from '../../../lib/toast';
import { paths } from '../../../app/paths';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useApproveStanding, useCancelStanding, useDeclineStanding, useStandingConflicts, useStandingDetail, useStandingList } from '../api/standing-bookings-api';
import { OccurrenceActionModal, ReasonModal, useQuickResolve, type OccurrenceAction } from '../components/occurrence-actions';
import { StandingFormModal } from '../components/standing-form-modal';
import { formatSiteDay } from '../utils/format-site-day';

// /org/standing-bookings: recurring bookings of the organization (decision 045). The list (requests
// first), the dates that could not be booked with their choices, one series' dates and actions,
// and the form. English only, like the rest of the admin.

const STATUS_COLORS: Record<string, string> = { requested: 'yellow', active: 'green', declined: 'gray', cancelled: 'red', ended: 'gray' };
const OCCURRENCE_COLORS: Record<string, string> = { booked: 'green', conflict: 'orange', skipped: 'gray', cancelled: 'red' };

/** A status on a tint with near-black text (readable at badge size), as the booking status badges. */
function Tag({ color, children }: { color: string | undefined; children: ReactNode }) {
  return (
    <Badge color={color ?? 'gray'} variant="light" styles={{ root: { color: 'var(--mantine-color-dark-7)' } }}>
      {children}
    </Badge>
  );
}

function bookingLink(reference: string, date: string) {
  return `${paths.org.bookings}?q=${encodeURIComponent(reference)}&from=${date}&to=${date}`;
}

function ConflictsSection({ orgId, onPick }: { orgId: string; onPick: (a: OccurrenceAction) => void }) {
  const conflicts = useStandingConflicts(orgId);
  const quick = useQuickResolve(orgId);
  return (
    <Paper withBorder p="md" aria-labelledby="conflicts-title">
      <Title order={2} size="h4" id="conflicts-title" mb="sm">
        Conflicts
      </Title>
      <QueryStatus
        query={conflicts}
        loadingLabel="Loading conflicts"
        errorTitle="Could not load the conflicts"
        isEmpty={(conflicts.data?.items.length ?? 0) === 0}
        empty={<Text c="dimmed" size="sm">Every date of every standing booking is booked.</Text>}
      >
        {() => (
          <Table striped aria-label="Dates that could not be booked">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Reference</Table.Th>
                <Table.Th>Site</Table.Th>
                <Table.Th>Why</Table.Th>
                <Table.Th>Choices</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conflicts.data!.items.map((c) => (
                <Table.Tr key={`${c.standingBookingId}-${c.date}`}>
                  <Table.Td>
                    {c.date} {c.startLocal}
                  </Table.Td>
                  <Table.Td>
                    {c.tsrNumber} · {c.tenantName}
                  </Table.Td>
                  <Table.Td>{c.siteName}</Table.Td>
                  <Table.Td>{c.conflictMessage}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" disabled={quick.pending} onClick={() => void quick.run(c.standingBookingId, c.date, 'retry')}>
                        Retry
                      </Button>
                      <Button size="xs" variant="light" onClick={() => onPick({ kind: 'pick', seriesId: c.standingBookingId, date: c.date, label: `${c.tsrNumber}, ${c.date}` })}>
                        Pick time
                      </Button>
                      <Button size="xs" variant="default" disabled={quick.pending} onClick={() => void quick.run(c.standingBookingId, c.date, 'skip')}>
                        Skip
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryStatus>
    </Paper>
  );
}

function DetailModal({ orgId, id, onClose, onEdit, onAction }: { orgId: string; id: string | null; onClose: () => void; onEdit: (s: StandingBooking) => void; onAction: (a: OccurrenceAction) => void }) {
  const detail = useStandingDetail(orgId, id);
  const cancel = useCancelStanding(orgId);
  const quick = useQuickResolve(orgId);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const s = detail.data;
  return (
    <Modal opened={!!id} onClose={onClose} title={s ? `Standing booking ${s.tsrNumber}` : 'Standing booking'} size="xl">
      <QueryStatus query={detail} loadingLabel="Loading the standing booking" errorTitle="Could not load the standing booking" isEmpty={false} empty={null}>
        {() => (
          <Stack gap="sm">
            <Group justify="space-between" align="flex-start">
              <Stack gap={2}>
                <Text fw={600}>{describeStandingSchedule(s!)}</Text>
                <Text size="sm" c="dimmed">
                  {s!.tenantName} · {s!.siteName} · {s!.vehicleRegistration} · booked {s!.weeksAhead} weeks ahead
                </Text>
              </Stack>
              <Tag color={STATUS_COLORS[s!.status]}>{STATUS_LABEL(s!)}</Tag>
            </Group>
            {(s!.status === 'active' || s!.status === 'requested') && (
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => onEdit(s!)}>
                  Edit
                </Button>
                {s!.status === 'active' && (
                  <Button size="xs" variant="default" onClick={() => setConfirmCancel(true)}>
                    Cancel series
                  </Button>
                )}
              </Group>
            )}
            {s!.occurrences.length === 0 ? (
              <Text c="dimmed" size="sm">
                No dates booked yet.
              </Text>
            ) : (
              <Table striped aria-label="Dates of this standing booking">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Bay</Table.Th>
                    <Table.Th>Booking</Table.Th>
                    <Table.Th>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {s!.occurrences.map((o) => {
                    const label = `${s!.tsrNumber}, ${o.date}`;
                    const live = o.status === 'booked' && (o.bookingStatus === 'approved' || o.bookingStatus === 'pending');
                    return (
                      <Table.Tr key={o.date}>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          <time dateTime={o.date}>{formatSiteDay(o.date)}</time>
                        </Table.Td>
                        <Table.Td>
                          <Tag color={OCCURRENCE_COLORS[o.status]}>
                            {o.status === 'booked' && o.bookingStatus && o.bookingStatus !== 'approved' ? o.bookingStatus.replace('_', ' ') : o.status}
                          </Tag>
                          {o.conflictMessage && o.status === 'conflict' && (
                            <Text size="xs" c="dimmed">
                              {o.conflictMessage}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{o.bayName ?? '—'}</Table.Td>
                        <Table.Td>
                          {o.bookingId ? (
                            <Anchor component={Link} to={bookingLink(s!.tsrNumber, (o.startTime ?? o.date).slice(0, 10))} size="sm">
                              Open booking
                            </Anchor>
                          ) : (
                            '—'
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            {live && (
                              <>
                                <Button size="xs" variant="light" onClick={() => onAction({ kind: 'move', seriesId: s!.id, date: o.date, label })}>
                                  Move
                                </Button>
                                <Button size="xs" variant="default" onClick={() => onAction({ kind: 'cancel', seriesId: s!.id, date: o.date, label })}>
                                  Cancel
                                </Button>
                              </>
                            )}
                            {o.status === 'conflict' && (
                              <>
                                <Button size="xs" variant="light" disabled={quick.pending} onClick={() => void quick.run(s!.id, o.date, 'retry')}>
                                  Retry
                                </Button>
                                <Button size="xs" variant="light" onClick={() => onAction({ kind: 'pick', seriesId: s!.id, date: o.date, label })}>
                                  Pick time
                                </Button>
                                <Button size="xs" variant="default" disabled={quick.pending} onClick={() => void quick.run(s!.id, o.date, 'skip')}>
                                  Skip
                                </Button>
                              </>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            )}
            <ReasonModal
              opened={confirmCancel}
              title="Cancel the whole series?"
              body="Every upcoming booking of this standing booking is cancelled; past ones stay. The haulier gets one e-mail."
              confirm="Cancel series"
              required={false}
              pending={cancel.isPending}
              onClose={() => setConfirmCancel(false)}
              onConfirm={async (reason) => {
                await cancel.mutateAsync({ id: s!.id, reason: reason || null });
                toast.success('Series cancelled', s!.tsrNumber);
              }}
            />
          </Stack>
        )}
      </QueryStatus>
    </Modal>
  );
}

const STATUS_LABEL = (s: StandingBooking) => STANDING_STATUS_LABELS[s.status];

export default function OrgStandingBookingsPage() {
  usePageTitle('Standing bookings');
  const { selectedOrg, sites } = useOrgSelection();
  const orgId = selectedOrg?.id;
  const [page, setPage] = useState(1);
  const list = useStandingList(orgId, page);
  const [form, setForm] = useState<{ opened: boolean; editing: StandingBooking | null; key: number }>({ opened: false, editing: null, key: 0 });
  const [openId, setOpenId] = useState<string | null>(null);
  const [action, setAction] = useState<OccurrenceAction>(null);
  const [declining, setDeclining] = useState<StandingBooking | null>(null);
  const approve = useApproveStanding(orgId ?? '');
  const decline = useDeclineStanding(orgId ?? '');

  if (!orgId) {
    return (
      <Container size="xl" py="md">
        <Title order={1} size="h2">
          Standing bookings
        </Title>
        <Text c="dimmed">Choose an organization.</Text>
      </Container>
    );
  }
  const openForm = (editing: StandingBooking | null) => setForm((f) => ({ opened: true, editing, key: f.key + 1 }));
  const items = list.data?.items ?? [];

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between">
          <div>
            <Title order={1} size="h2">
              Standing bookings
            </Title>
            <Text c="dimmed" size="sm">
              Recurring bookings for tenants: each date is booked weeks ahead through the usual rules.
            </Text>
          </div>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => openForm(null)} disabled={sites.length === 0}>
            New standing booking
          </Button>
        </Group>
        <ConflictsSection orgId={orgId} onPick={setAction} />
        <Paper withBorder p="md">
          <QueryStatus
            query={list}
            loadingLabel="Loading standing bookings"
            errorTitle="Could not load the standing bookings"
            isEmpty={items.length === 0}
            empty={<Text c="dimmed" ta="center">No standing bookings yet. Create one for a tenant who comes at the same time every week.</Text>}
          >
            {() => (
              <Table striped highlightOnHover aria-label="Standing bookings">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Reference</Table.Th>
                    <Table.Th>Tenant</Table.Th>
                    <Table.Th>Schedule</Table.Th>
                    <Table.Th>Site</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Next</Table.Th>
                    <Table.Th>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((s) => (
                    <Table.Tr key={s.id}>
                      <Table.Td>
                        <Anchor component="button" type="button" onClick={() => setOpenId(s.id)}>
                          {s.tsrNumber}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{s.tenantName}</Table.Td>
                      <Table.Td>{describeStandingSchedule(s)}</Table.Td>
                      <Table.Td>{s.siteName}</Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          <Tag color={STATUS_COLORS[s.status]}>{STATUS_LABEL(s)}</Tag>
                          {s.openConflicts > 0 && (
                            <Tag color="orange">
                              {s.openConflicts} conflict{s.openConflicts === 1 ? '' : 's'}
                            </Tag>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{s.nextOccurrence ? <time dateTime={s.nextOccurrence}>{formatSiteDay(s.nextOccurrence)}</time> : '—'}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button size="xs" variant="default" onClick={() => setOpenId(s.id)}>
                            Open
                          </Button>
                          {s.status === 'requested' && (
                            <>
                              <Button
                                size="xs"
                                loading={approve.isPending}
                                onClick={() =>
                                  void approve.mutateAsync(s.id).then(
                                    () => toast.success('Request approved', s.tsrNumber),
                                    (e: Error) => toast.error('Could not approve', e.message),
                                  )
                                }
                              >
                                Approve
                              </Button>
                              <Button size="xs" variant="default" onClick={() => setDeclining(s)}>
                                Decline
                              </Button>
                            </>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </QueryStatus>
          {(list.data?.total ?? 0) > 25 && (
            <Group justify="center" mt="sm">
              <Pagination total={Math.ceil(list.data!.total / 25)} value={page} onChange={setPage} />
            </Group>
          )}
        </Paper>
      </Stack>
      {form.opened && <StandingFormModal key={form.key} orgId={orgId} opened onClose={() => setForm((f) => ({ ...f, opened: false }))} sites={sites} editing={form.editing} />}
      <DetailModal
        orgId={orgId}
        id={openId}
        onClose={() => setOpenId(null)}
        onEdit={(s) => {
          setOpenId(null);
          openForm(s);
        }}
        onAction={setAction}
      />
      {action && <OccurrenceActionModal key={`${action.kind}-${action.seriesId}-${action.date}`} orgId={orgId} action={action} onClose={() => setAction(null)} />}
      <ReasonModal
        opened={!!declining}
        title="Decline this request?"
        body="The haulier is told, with your reason."
        confirm="Decline"
        required
        pending={decline.isPending}
        onClose={() => setDeclining(null)}
        onConfirm={async (reason) => {
          await decline.mutateAsync({ id: declining!.id, reason });
          toast.success('Request declined', declining!.tsrNumber);
        }}
      />
    </Container>
  );
}
