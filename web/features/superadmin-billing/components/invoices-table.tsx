import { ActionIcon, Anchor, Badge, Button, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconBan, IconCash, IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { periodLabel, type Invoice } from '../../../../domain/billing';
import { paths } from '../../../app/paths';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDownloadInvoicePdf } from '../api/download-invoice-pdf';
import { INVOICE_STATUS_COLORS, badgeStyles, formatBillingDay, formatUsd } from './billing-format';
import type { InvoiceAction } from './invoice-action-modal';

type Props = {
  invoices: Invoice[];
  canManage: boolean;
  onAction: (action: InvoiceAction) => void;
  /** Leave out the organization column (on an organization's own page). */
  showOrganization?: boolean;
};

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** Invoices with their period, dates, amount and status; Download PDF, and Mark paid / Void for an open one. */
export function InvoicesTable({ invoices, canManage, onAction, showOrganization = true }: Props) {
  const download = useDownloadInvoicePdf();
  const downloadPdf = (invoice: Invoice) =>
    download.mutate(invoice, {
      onSuccess: (fileName) => toast.success('Invoice downloaded', fileName),
      onError: (error) => toast.error('Download failed', errorMessage(error, 'The PDF could not be downloaded')),
    });
  return (
    <Table.ScrollContainer minWidth={showOrganization ? 1020 : 860}>
      <Table verticalSpacing="sm" aria-label="Invoices" data-testid="invoices-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Invoice</Table.Th>
            {showOrganization ? <Table.Th>Organization</Table.Th> : null}
            <Table.Th>Period</Table.Th>
            <Table.Th>Issued</Table.Th>
            <Table.Th>Due</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th miw={100}>Status</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoices.map((invoice) => (
            <Table.Tr key={invoice.id} data-invoice={invoice.number}>
              <Table.Td>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {invoice.number}
                </Text>
                {invoice.planName ? (
                  <Text size="xs" c="dimmed">
                    {invoice.planName}
                  </Text>
                ) : null}
              </Table.Td>
              {showOrganization ? (
                <Table.Td>
                  <Anchor component={Link} to={paths.superadmin.organization(invoice.orgId)} size="sm">
                    {invoice.orgName}
                  </Anchor>
                </Table.Td>
              ) : null}
              <Table.Td>
                <Text size="sm" style={NOWRAP}>
                  {invoice.periodKey ? periodLabel(invoice.periodKey) : '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={NOWRAP}>
                  {formatBillingDay(invoice.issuedAt)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={NOWRAP}>
                  {formatBillingDay(invoice.dueAt)}
                </Text>
                {invoice.isOverdue ? (
                  <Text size="xs" c="red.9" fw={600}>
                    Overdue
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{formatUsd(invoice.amountDue)}</Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={INVOICE_STATUS_COLORS[invoice.status] ?? 'gray'} styles={badgeStyles}>
                  {invoice.status}
                </Badge>
                {invoice.status === 'paid' ? (
                  <Text size="xs" c="dimmed" style={NOWRAP}>
                    {formatBillingDay(invoice.paidAt)}
                    {invoice.paymentMethod === 'stripe' ? ' · Stripe' : invoice.paymentMethod === 'manual' ? ' · by hand' : ''}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap" justify="flex-end">
                  {canManage && invoice.status === 'open' ? (
                    <>
                      <Button
                        size="xs"
                        leftSection={<IconCash size={14} aria-hidden />}
                        onClick={() => onAction({ kind: 'mark-paid', invoice })}
                        aria-label={`Mark ${invoice.number} paid`}
                      >
                        Mark paid
                      </Button>
                      <Tooltip label="Void" withArrow>
                        <ActionIcon variant="default" size={30} onClick={() => onAction({ kind: 'void', invoice })} aria-label={`Void ${invoice.number}`}>
                          <IconBan size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </>
                  ) : null}
                  <Tooltip label="Download PDF" withArrow>
                    <ActionIcon
                      variant="default"
                      size={30}
                      loading={download.isPending && download.variables?.id === invoice.id}
                      onClick={() => downloadPdf(invoice)}
                      aria-label={`Download ${invoice.number} as PDF`}
                    >
                      <IconDownload size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
