import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { SPECIAL_ACCESS_LABELS } from '../../../../domain/enums';
import type { BayItem } from '../../../../domain/org-bays';

export type BayAction = 'edit' | 'deactivate' | 'reactivate' | 'delete';

type Props = {
  items: BayItem[];
  /** Show each bay's site (the list spans every site). */
  showSite: boolean;
  /** Admins get the row actions; others read. */
  canWrite: boolean;
  onAction: (action: BayAction, bay: BayItem) => void;
};

const metres = (value: number) => value.toFixed(2);

/**
 * Text on a tint stays near-black (contrast); the colour is in the tint (as the booking status badge).
 * A badge keeps its whole word: a narrow table column otherwise clipped 'Active' to 'A…'.
 */
const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)', minWidth: 'max-content' } };

/** One row per bay, in the server's natural order (B-2 before B-10). */
export function BaysTable({ items, showSite, canWrite, onAction }: Props) {
  return (
    <Table.ScrollContainer minWidth={canWrite ? 940 : 760}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Bays">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            {showSite ? <Table.Th>Site</Table.Th> : null}
            <Table.Th ta="right">Clearance (m)</Table.Th>
            <Table.Th ta="right">Length (m)</Table.Th>
            <Table.Th>Features</Table.Th>
            <Table.Th ta="right">Capacity</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Upcoming bookings</Table.Th>
            {canWrite ? <Table.Th>Actions</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((bay) => (
            <Table.Tr key={bay.id} data-testid={`bay-row-${bay.name}`}>
              <Table.Td fw={600}>{bay.name}</Table.Td>
              {showSite ? <Table.Td>{bay.siteName}</Table.Td> : null}
              <Table.Td ta="right" ff="monospace">
                {metres(bay.heightClearanceM)}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {bay.lengthM === null ? (
                  <Text span c="dimmed" size="sm" ff="text">
                    No limit
                  </Text>
                ) : (
                  metres(bay.lengthM)
                )}
              </Table.Td>
              <Table.Td>
                {bay.features.length === 0 ? (
                  <Text span c="dimmed" size="sm">
                    None
                  </Text>
                ) : (
                  <Group gap={4}>
                    {bay.features.map((feature) => (
                      <Badge key={feature} variant="light" color="indigo" size="sm" tt="none" styles={badgeStyles}>
                        {SPECIAL_ACCESS_LABELS[feature]}
                      </Badge>
                    ))}
                  </Group>
                )}
              </Table.Td>
              <Table.Td ta="right">{bay.capacity}</Table.Td>
              <Table.Td>
                <Badge
                  color={bay.active ? 'green' : 'gray'}
                  variant="light"
                  tt="none"
                  styles={badgeStyles}
                  leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${bay.active ? 'green' : 'gray'}-7)` }} />}
                >
                  {bay.active ? 'Active' : 'Inactive'}
                </Badge>
              </Table.Td>
              <Table.Td ta="right">{bay.upcomingBookings}</Table.Td>
              {canWrite ? (
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button size="compact-sm" variant="default" onClick={() => onAction('edit', bay)} aria-label={`Edit bay ${bay.name}`}>
                      Edit
                    </Button>
                    {bay.active ? (
                      <Button size="compact-sm" variant="default" onClick={() => onAction('deactivate', bay)} aria-label={`Deactivate bay ${bay.name}`}>
                        Deactivate
                      </Button>
                    ) : (
                      <Button size="compact-sm" variant="default" onClick={() => onAction('reactivate', bay)} aria-label={`Reactivate bay ${bay.name}`}>
                        Reactivate
                      </Button>
                    )}
                    <Button size="compact-sm" variant="default" c="red.9" onClick={() => onAction('delete', bay)} aria-label={`Delete bay ${bay.name}`}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
