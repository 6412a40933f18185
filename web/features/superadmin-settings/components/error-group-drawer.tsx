import { Alert, Box, Button, Code, Drawer, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconRotateClockwise } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorTitle, type ErrorEvent, type ErrorGroup } from '../../../../domain/error-monitoring';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format';
import { useErrorGroup } from '../api/error-groups-api';
import { ErrorSourceBadge, ErrorStatusBadge } from './error-badges';
import { formatDateTimeSeconds } from './format';
import { useReopenErrorGroup } from './resolve-error-modal';

// One error group: its figures, the latest occurrence's stack and request, and its recent
// occurrences; Resolve (confirmed) and Reopen for super admins and owners.

/** 'POST /api/orgs/…/bays → 500' for a server request; the page for a browser error. */
export function whereLabel(event: Pick<ErrorEvent, 'source' | 'method' | 'url' | 'statusCode'>): string {
  if (event.source === 'browser') return event.url ? `Page ${event.url}` : 'Page unknown';
  return [event.method, event.url ?? 'unknown URL', event.statusCode ? `→ ${event.statusCode}` : null].filter(Boolean).join(' ');
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** Long lines wrap: only the frame around the block scrolls (one keyboard-reachable region). */
const codeStyle = { overflow: 'visible', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** A long block that scrolls, reachable by keyboard (focus it, then the arrow keys). */
function Scrollable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box role="region" aria-label={label} tabIndex={0} mah={280} style={{ overflow: 'auto', borderRadius: 'var(--mantine-radius-sm)' }}>
      {children}
    </Box>
  );
}

function Sample({ event }: { event: ErrorEvent }) {
  const { name: _name, ...details } = event.details;
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Latest occurrence
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Fact label="When">{formatDateTimeSeconds(event.createdAt)}</Fact>
        <Fact label={event.source === 'server' ? 'Request' : 'Page'}>
          <Code>{event.source === 'server' ? whereLabel(event) : (event.url ?? 'unknown')}</Code>
        </Fact>
        <Fact label="User">{event.userEmail ?? (event.userId ? 'Deleted user' : 'Not signed in')}</Fact>
        <Fact label="Request ID">{event.requestId ? <Code>{event.requestId}</Code> : '—'}</Fact>
        {event.code ? <Fact label="Code">{<Code>{event.code}</Code>}</Fact> : null}
      </SimpleGrid>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        Stack
      </Text>
      {event.stack ? (
        <Scrollable label="Stack trace">
          <Code block data-testid="error-stack" style={codeStyle}>
            {event.stack}
          </Code>
        </Scrollable>
      ) : (
        <Text size="sm" c="dimmed">
          No stack was recorded.
        </Text>
      )}
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {event.source === 'server' ? 'Request details' : 'Browser details'}
      </Text>
      {Object.keys(details).length > 0 ? (
        <Scrollable label={event.source === 'server' ? 'Request details' : 'Browser details'}>
          <Code block data-testid="error-request" style={codeStyle}>
            {JSON.stringify(details, null, 2)}
          </Code>
        </Scrollable>
      ) : (
        <Text size="sm" c="dimmed">
          Nothing else was recorded.
        </Text>
      )}
    </Stack>
  );
}

function RecentEvents({ events }: { events: ErrorEvent[] }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Recent occurrences
      </Title>
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing="xs" aria-label="Recent occurrences">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Where</Table.Th>
              <Table.Th>User</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>
                  <Text size="sm">{formatDateTimeSeconds(event.createdAt)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {whereLabel(event)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {event.userEmail ?? '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

type Props = {
  fingerprint: string | null;
  onClose: () => void;
  onResolve: (group: ErrorGroup) => void;
};

export function ErrorGroupDrawer({ fingerprint, onClose, onResolve }: Props) {
  const detail = useErrorGroup(fingerprint);
  const { reopen, isPending: isReopening } = useReopenErrorGroup();
  const group = detail.data?.group;

  let body: ReactNode;
  if (detail.isPending) {
    body = (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading the error" />
      </Group>
    );
  } else if (detail.isError || !group) {
    const isMissing = detail.error instanceof ApiError && detail.error.status === 404;
    body = (
      <Alert color={isMissing ? 'gray' : 'red'} title={isMissing ? 'Error group not found' : 'Could not load the error'} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
        {isMissing ? 'There is no error group with this fingerprint.' : errorMessage(detail.error, 'Try again in a moment.')}
      </Alert>
    );
  } else {
    body = (
      <Stack gap="lg">
        <Stack gap="xs">
          <Text fw={700} style={{ overflowWrap: 'anywhere' }} data-testid="error-title">
            {errorTitle(group)}
          </Text>
          <Group gap="xs">
            <ErrorStatusBadge status={group.status} isRegression={group.isRegression} />
            <ErrorSourceBadge source={group.source} />
          </Group>
        </Stack>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Fact label="Occurrences">{formatCount(group.count)}</Fact>
          <Fact label="First seen">{formatDateTimeSeconds(group.firstSeen)}</Fact>
          <Fact label="Last seen">{formatDateTimeSeconds(group.lastSeen)}</Fact>
          <Fact label={group.isRegression ? 'Was resolved' : 'Resolved'}>
            {group.resolvedAt ? `${formatDateTimeSeconds(group.resolvedAt)}${group.resolvedByEmail ? ` by ${group.resolvedByEmail}` : ''}` : '—'}
          </Fact>
        </SimpleGrid>
        {detail.data.canTriage ? (
          <Group gap="sm">
            {group.status === 'open' ? (
              <Button leftSection={<IconCheck size={16} aria-hidden />} onClick={() => onResolve(group)}>
                Resolve
              </Button>
            ) : (
              <Button variant="default" leftSection={<IconRotateClockwise size={16} aria-hidden />} loading={isReopening} onClick={() => reopen(group)}>
                Reopen
              </Button>
            )}
          </Group>
        ) : null}
        <Sample event={group.sample} />
        <RecentEvents events={detail.data.events} />
        <Text size="xs" c="dimmed">
          Fingerprint <Code>{group.fingerprint}</Code>
        </Text>
      </Stack>
    );
  }

  return (
    <Drawer
      opened={!!fingerprint}
      onClose={onClose}
      position="right"
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close error details' }}
      title={<Title order={2} size="h4">Error details</Title>}>
      {body}
    </Drawer>
  );
}
