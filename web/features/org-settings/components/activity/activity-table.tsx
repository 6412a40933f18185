import { ActionIcon, Code, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { auditActorName, auditResourceLabel, auditRoleLabel, describeAuditAction, formatAuditDetail, type AuditEntry } from '../../../../../domain/audit-log';

// Settings › Activity's rows: when, who, what, on which resource (and site); each row opens to
// show every recorded detail.

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

const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
const formatTime = (iso: string) => dateTime.format(new Date(iso));

function Details({ entry }: { entry: AuditEntry }) {
  const fields = Object.entries(entry.details);
  return (
    <Stack gap={4} p="xs">
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
      {entry.resourceId ? (
        <Group gap="xs">
          <Text size="sm" fw={600}>
            Resource id
          </Text>
          <Code>{entry.resourceId}</Code>
        </Group>
      ) : null}
    </Stack>
  );
}

export function ActivityTable({ items }: { items: AuditEntry[] }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" aria-label="Activity">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={52}>
              <VisuallyHidden>Details</VisuallyHidden>
            </Table.Th>
            <Table.Th miw={120}>Time</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Resource</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((entry) => {
            const isOpen = open.has(entry.id);
            const label = [auditResourceLabel(entry), entry.siteName].filter(Boolean).join(' · ');
            return (
              <Fragment key={entry.id}>
                <Table.Tr>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="lg"
                      aria-expanded={isOpen}
                      aria-controls={isOpen ? `activity-details-${entry.id}` : undefined}
                      aria-label={`${isOpen ? 'Hide' : 'Show'} details of ${entry.action} at ${formatTime(entry.createdAt)}`}
                      onClick={() => toggle(entry.id)}
                    >
                      {isOpen ? <IconChevronDown size={18} aria-hidden /> : <IconChevronRight size={18} aria-hidden />}
                    </ActionIcon>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" title={entry.createdAt}>
                      {formatTime(entry.createdAt)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      <BreakableEmail text={auditActorName(entry)} />
                    </Text>
                    <Text size="xs" c="dimmed">
                      {auditRoleLabel(entry.actorRole)}
                    </Text>
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
                    {label ? (
                      <Text size="xs" c="dimmed" mt={2}>
                        {label}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
                {isOpen ? (
                  <Table.Tr id={`activity-details-${entry.id}`} bg="var(--mantine-color-gray-0)">
                    <Table.Td colSpan={5}>
                      <Details entry={entry} />
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
