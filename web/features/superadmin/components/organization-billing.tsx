import { Badge, Group, Paper, Table, Text, Title } from '@mantine/core';
import { NO_PLAN_LABEL, type OrganizationDetail } from '../../../../domain/platform-admin';
import { formatDay, formatMoney } from './format';

const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)' } };
const INVOICE_COLORS: Record<string, string> = { paid: 'green', open: 'orange', void: 'gray', uncollectible: 'red' };

const limit = (value: number | null, unit: string) => (value === null ? `unlimited ${unit}s` : `${value} ${unit}${value === 1 ? '' : 's'}`);

/** The plan with its price and limits, then the latest invoices. */
export function OrganizationBilling({ plan, invoices }: Pick<OrganizationDetail, 'plan' | 'invoices'>) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="billing-heading">
      <Title order={2} size="h4" id="billing-heading" mb="sm">
        Plan and invoices
      </Title>
      {plan ? (
        <Group gap="xs" mb="md" wrap="wrap" data-testid="organization-plan">
          <Text fw={700}>{plan.name}</Text>
          <Text size="sm" c="dimmed">
            {formatMoney(plan.priceCents / 100, plan.currency)} a {plan.interval} · {limit(plan.maxSites, 'site')} · {limit(plan.maxBays, 'bay')} ·{' '}
            {limit(plan.maxUsers, 'member')} · billing {plan.billingStatus}
            {plan.currentPeriodEnd ? `, period ends ${formatDay(plan.currentPeriodEnd)}` : ''}
          </Text>
        </Group>
      ) : (
        <Text size="sm" c="dimmed" mb="md" data-testid="organization-plan">
          {NO_PLAN_LABEL}
        </Text>
      )}
      {invoices.length === 0 ? (
        <Text size="sm" c="dimmed">
          No invoices yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" aria-label="Invoices" data-testid="organization-invoices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Invoice</Table.Th>
                <Table.Th>Issued</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Amount due</Table.Th>
                <Table.Th ta="right">Paid</Table.Th>
                <Table.Th>Paid on</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoices.map((invoice) => (
                <Table.Tr key={invoice.id}>
                  <Table.Td>{invoice.number}</Table.Td>
                  <Table.Td>{formatDay(invoice.issuedAt)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={INVOICE_COLORS[invoice.status] ?? 'gray'} styles={badgeStyles}>
                      {invoice.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(invoice.amountDue, invoice.currency)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(invoice.amountPaid, invoice.currency)}</Table.Td>
                  <Table.Td>{invoice.paidAt ? formatDay(invoice.paidAt) : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
