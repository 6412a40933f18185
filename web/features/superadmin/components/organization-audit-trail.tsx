import { Alert, Group, Loader, Pagination, Paper, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { AUDIT_FAILED_TEXT, AUDIT_LIST_DEFAULT_LIMIT, NO_RECENT_ACTIVITY_TEXT } from '../../../../domain/platform-admin';
import { errorMessage } from '../../../lib/api-client';
import { useOrganizationAudit } from '../api/get-organization';
import { actionLabel, formatDayTime, roleLabel } from './format';

const alertStyles = { title: { color: 'var(--mantine-color-text)' } };

/** A short, readable line of an entry's details ('reason: Unpaid · sessionsEnded: 3'). */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' · ');
}

/** The organization's audit trail, newest first, 20 a page. */
export function OrganizationAuditTrail({ orgId }: { orgId: string }) {
  const [page, setPage] = useState(1);
  const audit = useOrganizationAudit(orgId, page, AUDIT_LIST_DEFAULT_LIMIT);
  const total = audit.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_LIST_DEFAULT_LIMIT));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="audit-heading">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="audit-heading">
          Audit trail
        </Title>
        <Text size="sm" c="dimmed" aria-live="polite">
          {audit.data ? `${total} entr${total === 1 ? 'y' : 'ies'}` : ''}
        </Text>
      </Group>
      {audit.isPending ? (
        <Group justify="center" py="lg">
          <Loader aria-label="Loading the audit trail" />
        </Group>
      ) : audit.isError && !audit.data ? (
        <Alert styles={alertStyles} color="red" role="alert" title={AUDIT_FAILED_TEXT}>
          {errorMessage(audit.error, 'Try again in a moment.')}
        </Alert>
      ) : !audit.data || audit.data.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {NO_RECENT_ACTIVITY_TEXT}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table verticalSpacing="xs" aria-labelledby="audit-heading" data-testid="organization-audit">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={170}>When</Table.Th>
                <Table.Th miw={170}>Action</Table.Th>
                <Table.Th miw={220}>By</Table.Th>
                <Table.Th>Details</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {audit.data.items.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>
                    <Text size="sm">{formatDayTime(entry.createdAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {actionLabel(entry.action)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {entry.resourceType}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'break-word' }}>
                      {entry.actorEmail ?? '—'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {roleLabel(entry.actorRole)}
                    </Text>
                    {entry.impersonatorEmail ? (
                      <Text size="xs" fw={600} style={{ overflowWrap: 'break-word' }} data-testid="audit-impersonator">
                        Impersonated by {entry.impersonatorEmail}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                      {detailsText(entry.details) || '—'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 ? (
        <Group justify="flex-end" mt="sm">
          <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} audit page` })} />
        </Group>
      ) : null}
    </Paper>
  );
}
