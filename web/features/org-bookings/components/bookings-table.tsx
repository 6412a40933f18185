import { Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { VEHICLE_TYPE_LABELS, type VehicleType } from '../../../../domain/enums';
import type { BookingListItem } from '../../../../domain/org-bookings';
import { formatSiteRange } from '../utils/booking-display';
import { BookingStatusBadge } from '../../../components/ui/booking-status';

export type SortField = 'startTime' | 'createdAt' | 'tenantName' | 'status' | 'tsrNumber';
export type SortState = { sort: SortField; order: 'asc' | 'desc' };

type Props = {
  items: BookingListItem[];
  sort: SortState;
  onSort: (sort: SortState) => void;
  onOpen: (id: string) => void;
};

function SortHeader({ field, label, sort, onSort, width }: { field: SortField; label: string; sort: SortState; onSort: Props['onSort']; width?: number }) {
  const active = sort.sort === field;
  const Icon = !active ? IconArrowsSort : sort.order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th w={width} aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        onClick={() => onSort({ sort: field, order: active && sort.order === 'asc' ? 'desc' : 'asc' })}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 700, fontSize: 'inherit' }}
      >
        {label}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}

/** One row per booking; a row opens the booking's details. */
export function BookingsTable({ items, sort, onSort, onOpen }: Props) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table highlightOnHover verticalSpacing="sm" aria-label="Bookings">
        <Table.Thead>
          <Table.Tr>
            <SortHeader field="tsrNumber" label="TSR Number" sort={sort} onSort={onSort} />
            <SortHeader field="tenantName" label="Company" sort={sort} onSort={onSort} />
            <SortHeader field="startTime" label="When" sort={sort} onSort={onSort} />
            <Table.Th>Site and bay</Table.Th>
            <Table.Th>Vehicle</Table.Th>
            <SortHeader field="status" label="Status" sort={sort} onSort={onSort} width={150} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((b) => (
            <Table.Tr key={b.id} style={{ cursor: 'pointer' }} onClick={() => onOpen(b.id)}>
              <Table.Td>
                <UnstyledButton
                  onClick={(event) => {
                    event.stopPropagation();
                    onOpen(b.id);
                  }}
                  aria-label={`Open booking ${b.tsrNumber}`}
                  fw={600}
                  c="var(--mantine-primary-color-filled)"
                  fz="sm"
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {b.tsrNumber}
                </UnstyledButton>
              </Table.Td>
              <Table.Td>{b.tenantName}</Table.Td>
              <Table.Td>
                <Text size="sm">{formatSiteRange(b.startTime, b.endTime, b.timeZone)}</Text>
              </Table.Td>
              <Table.Td>
                {b.siteName}, {b.bayName}
              </Table.Td>
              <Table.Td>
                {VEHICLE_TYPE_LABELS[b.vehicleType as VehicleType] ?? b.vehicleType}, {b.vehicleRegistration}
              </Table.Td>
              <Table.Td>
                <BookingStatusBadge status={b.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
