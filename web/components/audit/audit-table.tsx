import { ActionIcon, Code, Group, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import {
  auditActorName,
  auditImpersonationNote,
  auditResourceLabel,
  auditRoleLabel,
  describeAuditAction,
  formatAuditDetail,
  type AuditEntry,
} from '../../../domain/audit-log';

// Audit rows, for the platform's audit list and an organization's Settings › Activity: when,
// where (the platform's: organization and site), who, what, on which resource; each row opens to
// show every recorded field and the ids (an organization's trail: the resource's id only).

/** An e-mail that may wrap after its '@' on a narrow screen, never inside a word. */
function BreakableEmail({ text }: { text: string }) {
  const at = text.indexOf('@');
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at + 1)}
      <wbr />
      {text.slice(at + 1)}
    </>
  );
}

/** Who really acted, in the row itself: a platform user acting as the actor (decision 017). */
function ImpersonationNote({ entry }: { entry: AuditEntry }) {
  const note = auditImpersonationNote(entry);
  if (!note) return null;
  return (
    <Text size="xs" fw={600} data-testid="audit-impersonator">
      <BreakableEmail text={note} />
    </Text>
  );
}

const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** '23 Nov 2026, 09:30:12' in the viewer's own time zone. */
export const formatAuditTime = (iso: string) => dateTime.format(new Date(iso));

function Details({ entry, allIds }: { entry: AuditEntry; allIds: boolean }) {
  const fields = Object.entries(entry.details);
  const ids: [string, string | null][] = allIds
    ? [
        ['Entry', entry.id],
        ['Resource', entry.resourceId],
        ['Actor', entry.actorId],
        ['Impersonator', entry.impersonatorId],
        ['Organization', entry.orgId],
        ['Site', entry.siteId],
      ]
    : [['Resource', entry.resourceId]];
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" p="xs">
      <Stack gap={4}>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed">
          Details
        </Text>
        {fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            No details recorded.
          </Text>
        ) : (
          <Stack component="dl" gap={2} m={0}>
            {fields.map(([key, value]) => (
              <Group key={key} gap="xs" wrap="nowrap" align="flex-start">
                <Text component="dt" size="sm" fw={600} miw={140}>
                  {key}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ wordBreak: 'break-word' }}>
                  {formatAuditDetail(value)}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <Stack gap={4}>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed">
          Identifiers
        </Text>
        {ids
          .filter(([, id]) => id)
          .map(([label, id]) => (
            <Group key={label} gap="xs" wrap="nowrap">
              <Text size="sm" fw={600} miw={100}>
                {label}
              </Text>
              <Code>{id}</Code>
            </Group>
          ))}
      </Stack>
    </SimpleGrid>
  );
}

type Props = {
  items: AuditEntry[];
  /**
   * 'platform': the organization column, every id, the table named "Audit entries";
   * 'organization': an organization's own trail (Settings › Activity), named "Activity".
   */
  variant: 'platform' | 'organization';
};

export function AuditTable({ items, variant }: Props) {
  const showOrganization = variant === 'platform';
  const rowId = (id: string) => `${showOrganization ? 'audit' : 'activity'}-details-${id}`;
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const columns = showOrganization ? 6 : 5;

  return (
    <Table.ScrollContainer minWidth={showOrganization ? 760 : 640}>
      <Table verticalSpacing="sm" aria-label={showOrganization ? 'Audit entries' : 'Activity'}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={52}>
              <VisuallyHidden>Details</VisuallyHidden>
            </Table.Th>
            <Table.Th miw={120}>Time</Table.Th>
            {showOrganization ? <Table.Th>Organization</Table.Th> : null}
            <Table.Th>{showOrganization ? 'Actor' : 'Who'}</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Resource</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((entry) => {
            const isOpen = open.has(entry.id);
            const label = auditResourceLabel(entry);
            return (
              <Fragment key={entry.id}>
                <Table.Tr>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="lg"
                      aria-expanded={isOpen}
                      aria-controls={isOpen ? rowId(entry.id) : undefined}
                      aria-label={`${isOpen ? 'Hide' : 'Show'} details of ${entry.action} at ${formatAuditTime(entry.createdAt)}`}
                      onClick={() => toggle(entry.id)}
                    >
                      {isOpen ? <IconChevronDown size={18} aria-hidden /> : <IconChevronRight size={18} aria-hidden />}
                    </ActionIcon>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" title={entry.createdAt}>
                      {formatAuditTime(entry.createdAt)}
                    </Text>
                  </Table.Td>
                  {showOrganization ? (
                    <Table.Td>
                      <Text size="sm">{entry.orgName ?? (entry.orgId ? 'Deleted organization' : '—')}</Text>
                      {entry.siteName ? (
                        <Text size="xs" c="dimmed">
                          {entry.siteName}
                        </Text>
                      ) : null}
                    </Table.Td>
                  ) : null}
                  <Table.Td>
                    <Text size="sm">
                      <BreakableEmail text={auditActorName(entry)} />
                    </Text>
                    <Text size="xs" c="dimmed">
                      {auditRoleLabel(entry.actorRole)}
                    </Text>
                    <ImpersonationNote entry={entry} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {describeAuditAction(entry.action)}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {entry.action}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {entry.resourceType.replace(/_/g, ' ')}
                    </Text>
                    {label || (!showOrganization && entry.siteName) ? (
                      <Text size="xs" c="dimmed" mt={2}>
                        {[label, showOrganization ? null : entry.siteName].filter(Boolean).join(' · ')}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
                {isOpen ? (
                  <Table.Tr id={rowId(entry.id)} bg="var(--mantine-color-gray-0)">
                    <Table.Td colSpan={columns}>
                      <Details entry={entry} allIds={showOrganization} />
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
