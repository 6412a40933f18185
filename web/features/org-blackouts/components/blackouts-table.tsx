import { ActionIcon, Badge, Group, Menu, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconRepeat, IconTrash } from '@tabler/icons-react';
import type { BlackoutItem, BlackoutSeries } from '../../../../domain/org-blackouts';
import { formatBlackoutSpan, formatDay, formatSiteTime } from '../utils/blackout-display';

// The blackouts list (one-offs, occurrences of series, holidays) and the recurring series.

const STATUS: Record<BlackoutItem['status'], { label: string; color: string }> = {
  current: { label: 'In force', color: 'red' },
  upcoming: { label: 'Upcoming', color: 'indigo' },
  past: { label: 'Past', color: 'gray' },
};

/** As the booking statuses read: near-black text on a tint, the colour in the tint and a dot. */
function TintBadge({ color, children }: { color: string; children: string }) {
  return (
    <Badge
      color={color}
      variant="light"
      styles={{ root: { color: 'var(--mantine-color-dark-7)', overflow: 'visible', flexShrink: 0, minWidth: 'max-content' }, label: { overflow: 'visible' } }}
      leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${color}-7)` }} />}
    >
      {children}
    </Badge>
  );
}

type ItemActions = {
  canEdit: boolean;
  onEdit: (item: BlackoutItem) => void;
  onEditSeries: (seriesId: string) => void;
  onDelete: (item: BlackoutItem) => void;
};

function TypeCell({ item }: { item: BlackoutItem }) {
  if (item.kind === 'holiday') {
    return <TintBadge color="grape">Holiday</TintBadge>;
  }
  if (item.series) {
    return (
      <Group gap={6} wrap="nowrap">
        <IconRepeat size={16} aria-hidden />
        <Text size="sm">{item.series.summary}</Text>
      </Group>
    );
  }
  return (
    <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
      One-off
    </Text>
  );
}

function RowActions({ item, canEdit, onEdit, onEditSeries, onDelete }: { item: BlackoutItem } & ItemActions) {
  if (item.kind === 'holiday') {
    return (
      <Text size="xs" c="dimmed">
        Set with the site’s hours
      </Text>
    );
  }
  if (!canEdit) return null;
  const label = `${item.bayName ?? 'whole site'} ${formatBlackoutSpan(item)}`;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {item.series ? (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`Edit blackout ${label}`}>
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => onEdit(item)}>Edit this occurrence</Menu.Item>
            <Menu.Item onClick={() => onEditSeries(item.series!.id)}>Edit the whole series</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ) : (
        <Tooltip label="Edit">
          <ActionIcon variant="subtle" aria-label={`Edit blackout ${label}`} onClick={() => onEdit(item)}>
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      )}
      <Tooltip label="Delete">
        <ActionIcon variant="subtle" color="red" aria-label={`Delete blackout ${label}`} onClick={() => onDelete(item)}>
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

export function BlackoutsTable({ items, ...actions }: { items: BlackoutItem[] } & ItemActions) {
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Blackouts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When (site time)</Table.Th>
            <Table.Th>Site and bay</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th w={90}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id} data-testid="blackout-row">
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatBlackoutSpan(item)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {item.siteName}, {item.bayName ?? <strong>whole site</strong>}
                </Text>
              </Table.Td>
              <Table.Td>
                <TypeCell item={item} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {item.reason ?? '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                <TintBadge color={STATUS[item.status].color}>{STATUS[item.status].label}</TintBadge>
              </Table.Td>
              <Table.Td>
                <RowActions item={item} {...actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function SeriesTable({
  items,
  canEdit,
  onEdit,
  onDelete,
}: {
  items: BlackoutSeries[];
  canEdit: boolean;
  onEdit: (series: BlackoutSeries) => void;
  onDelete: (series: BlackoutSeries) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table verticalSpacing="sm" aria-label="Recurring blackouts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Repeats</Table.Th>
            <Table.Th>Site and bay</Table.Th>
            <Table.Th>Dates</Table.Th>
            <Table.Th>Next</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th w={100}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {s.summary}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {s.siteName}, {s.bayName ?? <strong>whole site</strong>}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {formatDay(s.startsOn)} – {s.until ? formatDay(s.until) : 'no end'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{s.nextStart ? formatSiteTime(s.nextStart, s.timeZone) : 'None left'}</Text>
                <Text size="xs" c="dimmed">
                  {s.upcomingCount} upcoming
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {s.reason ?? '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                {canEdit ? (
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <Tooltip label="Edit">
                      <ActionIcon variant="subtle" aria-label={`Edit recurring blackout ${s.summary}`} onClick={() => onEdit(s)}>
                        <IconPencil size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Delete">
                      <ActionIcon variant="subtle" color="red" aria-label={`Delete recurring blackout ${s.summary}`} onClick={() => onDelete(s)}>
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
