import { Alert, Badge, Button, Group, List, Modal, Paper, Progress, SimpleGrid, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { IconCash, IconDownload, IconReplace } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import {
  PAYMENT_REFERENCE_MAX,
  PLAN_CHANGE_OVER_LIMITS,
  PLAN_LIMIT_LABELS,
  markInvoicePaidSchema,
  type LimitUsage,
  type PlanChangeViolation,
} from '../../../../domain/billing';
import { NO_PLAN_LABEL, type OrganizationDetail } from '../../../../domain/platform-admin';
import { SelectField } from '../../../components/ui/select-field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useChangeInvoice } from '../../superadmin-billing/api/change-invoice';
import { useDownloadInvoicePdf } from '../../superadmin-billing/api/download-invoice-pdf';
import { useAssignPlan, useOrganizationPlan } from '../../superadmin-billing/api/organization-plan';
import { formatDay, formatMoney } from './format';

const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)' } };
const alertStyles = { title: { color: 'var(--mantine-color-text)' } };
const INVOICE_COLORS: Record<string, string> = { paid: 'green', open: 'orange', void: 'gray', uncollectible: 'red' };

const limit = (value: number | null, unit: string) => (value === null ? `unlimited ${unit}s` : `${value} ${unit}${value === 1 ? '' : 's'}`);

type Invoice = OrganizationDetail['invoices'][number];

/** Use against one limit: '3 of 10', a bar, flagged when above the limit. */
function UsageItem({ usage }: { usage: LimitUsage }) {
  const label = PLAN_LIMIT_LABELS[usage.kind];
  const percent = usage.allowed ? Math.min(100, (usage.used / usage.allowed) * 100) : 0;
  return (
    <div data-usage={usage.kind}>
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Text size="sm">{label.title}</Text>
        <Text size="sm" fw={600} c={usage.isOver ? 'red.9' : undefined}>
          {usage.used.toLocaleString('en-US')} of {usage.allowed === null ? 'unlimited' : usage.allowed.toLocaleString('en-US')}
        </Text>
      </Group>
      {usage.allowed !== null ? (
        <Progress value={percent} color={usage.isOver ? 'red.8' : percent >= 80 ? 'orange.7' : 'indigo.7'} size="sm" mt={4} aria-hidden />
      ) : null}
      {usage.isOver ? (
        <Text size="xs" c="red.9">
          Above the plan’s limit: nothing more can be added.
        </Text>
      ) : null}
    </div>
  );
}

/** What a plan change would break, from the server's 409 plan_change_over_limits; null for any other answer. */
function violationsOf(error: unknown): PlanChangeViolation[] | null {
  if (!(error instanceof ApiError) || error.code !== PLAN_CHANGE_OVER_LIMITS) return null;
  const violations = (error.details as { violations?: PlanChangeViolation[] } | undefined)?.violations;
  return Array.isArray(violations) ? violations : null;
}

/**
 * Changing the organization's plan. A plan it would be over is not changed at once: the server's
 * list of what breaks is shown and the change must be confirmed ("Change plan anyway").
 */
function ChangePlanModal({ orgId, orgName, currentPlanId, plans, opened, onClose }: {
  orgId: string;
  orgName: string;
  currentPlanId: string | null;
  plans: { id: string; name: string; priceUsd: number; active: boolean }[];
  opened: boolean;
  onClose: () => void;
}) {
  const assign = useAssignPlan(orgId);
  const [planId, setPlanId] = useState(currentPlanId ?? '');
  useEffect(() => {
    if (!opened) return;
    setPlanId(currentPlanId ?? '');
    assign.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh dialog each time it opens
  }, [opened]);
  const chosen = plans.find((p) => p.id === planId);
  const violations = assign.isError ? violationsOf(assign.error) : null;
  const submit = (confirm: boolean) =>
    assign.mutate(
      { planId: planId || null, confirm },
      {
        onSuccess: (result) => {
          const over = result.usage.filter((u) => u.isOver).map((u) => PLAN_LIMIT_LABELS[u.kind].many);
          toast.success('Plan changed', `${orgName} is on ${result.plan?.name ?? 'no plan'}.`);
          if (over.length > 0) toast.info('Limits below current use', `${orgName} uses more ${over.join(', ')} than ${result.plan?.name} allows.`);
          onClose();
        },
      },
    );
  return (
    <Modal opened={opened} onClose={onClose} title={`Change ${orgName}’s plan`} size="lg">
      <Stack gap="md">
        <SelectField
          label="Plan"
          data={[
            { value: '', label: `${NO_PLAN_LABEL} (unlimited, not invoiced)` },
            ...plans.map((p) => ({ value: p.id, label: `${p.name} — ${formatMoney(p.priceUsd, 'USD')} a month${p.active ? '' : ' (retired)'}` })),
          ]}
          value={planId}
          onChange={(event) => {
            setPlanId(event.currentTarget.value);
            assign.reset();
          }}
        />
        <Text size="sm">
          {chosen
            ? `From now on ${orgName} is held to ${chosen.name}’s limits, and its next monthly invoice is for ${chosen.name}. Nothing already created is removed.`
            : `${orgName} will have no limits and will not be invoiced.`}
        </Text>
        {violations ? (
          <Alert styles={alertStyles} color="orange" role="alert" title={`${orgName} would be over ${chosen?.name ?? 'this plan'}’s limits`} data-testid="plan-change-violations">
            <Stack gap="xs">
              <List size="sm" spacing={4}>
                {violations.map((violation) => (
                  <List.Item key={violation.kind} data-violation={violation.kind}>
                    {violation.message}
                  </List.Item>
                ))}
              </List>
              <Text size="sm">Nothing is removed. Change the plan anyway?</Text>
            </Stack>
          </Alert>
        ) : assign.isError ? (
          <Alert styles={alertStyles} color="red" role="alert" title="Not changed">
            {errorMessage(assign.error, 'The plan could not be changed')}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          {violations ? (
            <Button color="red.9" loading={assign.isPending} onClick={() => submit(true)}>
              Change plan anyway
            </Button>
          ) : (
            <Button loading={assign.isPending} disabled={(currentPlanId ?? '') === planId} onClick={() => submit(false)}>
              Change plan
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** Marking one invoice paid by hand, with the payment's reference. */
function MarkPaidModal({ invoice, orgName, onClose }: { invoice: Invoice | null; orgName: string; onClose: () => void }) {
  const change = useChangeInvoice();
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(invoice);
  useEffect(() => {
    if (!invoice) return;
    setShown(invoice);
    setReference('');
    setError(null);
    change.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh dialog each time it opens
  }, [invoice]);
  if (!shown) return null;
  const confirm = () => {
    const parsed = markInvoicePaidSchema.safeParse({ reference });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Required');
      return;
    }
    change.mutate(
      { kind: 'mark-paid', invoiceId: shown.id, reference: parsed.data.reference },
      {
        onSuccess: (result) => {
          toast.success('Invoice paid', `${result.number} (${formatMoney(result.amountPaid, result.currency)}) is marked paid.`);
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened={!!invoice} onClose={onClose} title={`Mark ${shown.number} paid?`} size="md">
      <Stack gap="md">
        <Text size="sm">
          {orgName} paid {formatMoney(shown.amountDue, shown.currency)} outside the payment provider (a bank transfer, a cheque). The payment is recorded
          today and counts as revenue.
        </Text>
        <TextInput
          label="Payment reference"
          description="The bank transfer reference or a note; kept with the invoice and in the audit log."
          required
          maxLength={PAYMENT_REFERENCE_MAX}
          value={reference}
          error={error}
          onChange={(event) => {
            setReference(event.currentTarget.value);
            setError(null);
          }}
          data-autofocus
        />
        {change.isError ? (
          <Alert styles={alertStyles} color="red" role="alert" title="Not changed">
            {errorMessage(change.error, 'The invoice could not be changed')}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={change.isPending} onClick={confirm}>
            Mark paid
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The plan with its price and limits, its use against them (Change plan), then the latest invoices (PDF, Mark paid). */
export function OrganizationBilling({ plan, invoices }: Pick<OrganizationDetail, 'plan' | 'invoices'>) {
  const { orgId = '' } = useParams();
  const billing = useOrganizationPlan(orgId);
  const download = useDownloadInvoicePdf();
  const [isChanging, setIsChanging] = useState(false);
  const [paying, setPaying] = useState<Invoice | null>(null);
  const canManage = billing.data?.canManage ?? false;
  const orgName = billing.data?.orgName ?? 'The organization';

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="billing-heading">
      <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap" gap="sm">
        <Title order={2} size="h4" id="billing-heading">
          Plan and invoices
        </Title>
        {canManage && billing.data ? (
          <Button size="xs" variant="default" leftSection={<IconReplace size={14} aria-hidden />} onClick={() => setIsChanging(true)}>
            Change plan
          </Button>
        ) : null}
      </Group>
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
      {billing.data ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" mb="md" data-testid="organization-limits" role="group" aria-label="Use against the plan’s limits">
          {billing.data.usage.map((usage) => (
            <UsageItem key={usage.kind} usage={usage} />
          ))}
        </SimpleGrid>
      ) : billing.isError ? (
        <Text size="sm" c="red.9" mb="md">
          Limits not loaded: {errorMessage(billing.error, 'try again in a moment')}
        </Text>
      ) : null}
      {invoices.length === 0 ? (
        <Text size="sm" c="dimmed">
          No invoices yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" aria-label="Invoices" data-testid="organization-invoices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Invoice</Table.Th>
                <Table.Th>Issued</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Amount due</Table.Th>
                <Table.Th ta="right">Paid</Table.Th>
                <Table.Th>Paid on</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoices.map((invoice) => (
                <Table.Tr key={invoice.id} data-invoice={invoice.number}>
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
                  <Table.Td>
                    <Group gap={6} wrap="nowrap" justify="flex-end">
                      {canManage && invoice.status === 'open' ? (
                        <Button size="xs" leftSection={<IconCash size={14} aria-hidden />} onClick={() => setPaying(invoice)} aria-label={`Mark ${invoice.number} paid`}>
                          Mark paid
                        </Button>
                      ) : null}
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconDownload size={14} aria-hidden />}
                        loading={download.isPending && download.variables?.id === invoice.id}
                        onClick={() =>
                          download.mutate(invoice, {
                            onSuccess: (fileName) => toast.success('Invoice downloaded', fileName),
                            onError: (error) => toast.error('Download failed', errorMessage(error, 'The PDF could not be downloaded')),
                          })
                        }
                        aria-label={`Download ${invoice.number} as PDF`}
                      >
                        PDF
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {billing.data ? (
        <ChangePlanModal
          orgId={orgId}
          orgName={orgName}
          currentPlanId={billing.data.plan?.id ?? null}
          plans={billing.data.plans}
          opened={isChanging}
          onClose={() => setIsChanging(false)}
        />
      ) : null}
      <MarkPaidModal invoice={paying} orgName={orgName} onClose={() => setPaying(null)} />
    </Paper>
  );
}
