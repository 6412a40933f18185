import { Badge, Button, Group, List, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconPencil } from '@tabler/icons-react';
import type { Plan } from '../../../../domain/billing';
import { badgeStyles, formatLimit, formatUsd, overLimitText } from './billing-format';

type Props = { plans: Plan[]; canManage: boolean; onEdit: (plan: Plan) => void };

/** Every plan: its monthly price, limits, the organizations on it, and those whose use is above a limit. */
export function PlansTable({ plans, canManage, onEdit }: Props) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" aria-label="Plans" data-testid="plans-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th miw={180}>Plan</Table.Th>
            <Table.Th ta="right">Price / month</Table.Th>
            <Table.Th ta="right">Sites</Table.Th>
            <Table.Th ta="right">Bays</Table.Th>
            <Table.Th ta="right">Members</Table.Th>
            <Table.Th ta="right">Bookings / month</Table.Th>
            <Table.Th ta="right">Organizations</Table.Th>
            <Table.Th miw={170}>Limits below use</Table.Th>
            {canManage ? (
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {plans.map((plan) => (
            <Table.Tr key={plan.id} data-plan={plan.name}>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Text fw={600} size="sm">
                    {plan.name}
                  </Text>
                  {plan.active ? null : (
                    <Badge variant="light" color="gray" size="sm" styles={badgeStyles}>
                      Retired
                    </Badge>
                  )}
                </Group>
                {plan.description ? (
                  <Text size="xs" c="dimmed" maw={240}>
                    {plan.description}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td ta="right" data-field="price">
                {formatUsd(plan.priceUsd)}
              </Table.Td>
              <Table.Td ta="right" data-field="sites">
                {formatLimit(plan.limits.sites)}
              </Table.Td>
              <Table.Td ta="right" data-field="bays">
                {formatLimit(plan.limits.bays)}
              </Table.Td>
              <Table.Td ta="right" data-field="members">
                {formatLimit(plan.limits.members)}
              </Table.Td>
              <Table.Td ta="right" data-field="bookings">
                {formatLimit(plan.limits.bookings)}
              </Table.Td>
              <Table.Td ta="right" data-field="organizations">
                {plan.organizations}
              </Table.Td>
              <Table.Td data-field="over-limit">
                {plan.overLimit.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                ) : (
                  <Stack gap={2}>
                    <Group gap={4} wrap="nowrap">
                      <IconAlertTriangle size={16} color="var(--mantine-color-orange-8)" aria-hidden />
                      <Text size="sm" fw={600} c="red.9">
                        {plan.overLimit.length} over a limit
                      </Text>
                    </Group>
                    <List size="xs" spacing={0}>
                      {plan.overLimit.map((item) => (
                        <List.Item key={`${item.orgId}-${item.kind}`}>{overLimitText(item)}</List.Item>
                      ))}
                    </List>
                  </Stack>
                )}
              </Table.Td>
              {canManage ? (
                <Table.Td>
                  <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => onEdit(plan)} aria-label={`Edit plan ${plan.name}`}>
                    Edit
                  </Button>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
