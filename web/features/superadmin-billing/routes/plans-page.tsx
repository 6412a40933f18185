import { Alert, Button, Group, Loader, Pagination, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFileInvoice, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { INVOICES_PAGE_SIZE, INVOICE_STATUSES, type InvoiceStatus, type Plan } from '../../../../domain/billing';
import { SelectField } from '../../../components/ui/select-field';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useListParams } from '../../../lib/use-list-params';
import { usePageTitle } from '../../../lib/use-page-title';
import { useInvoices } from '../api/get-invoices';
import { usePlans } from '../api/get-plans';
import { alertStyles, overLimitText } from '../components/billing-format';
import { InvoiceActionModal, type InvoiceAction } from '../components/invoice-action-modal';
import { InvoicesTable } from '../components/invoices-table';
import { IssueInvoicesModal } from '../components/issue-invoices-modal';
import { PlanFormModal } from '../components/plan-form-modal';
import { PlansTable } from '../components/plans-table';
import { RevenueCard } from '../components/revenue-card';

// /superadmin/plans: revenue by month, the plans (price, limits, organizations on each, those over
// a limit) and every invoice. Super admins and platform owners create and edit plans, issue a
// month's invoices, mark invoices paid and void them; platform support reads (the buttons are not
// shown, and the server refuses anyway). Invoice filters and page live in the address.

const STATUS_OPTIONS = [{ value: '', label: 'Any status' }, ...INVOICE_STATUSES.map((s) => ({ value: s, label: s.charAt(0).toUpperCase() + s.slice(1) }))];

function readInvoiceQuery(params: URLSearchParams) {
  const status = params.get('status');
  return {
    status: (INVOICE_STATUSES as readonly string[]).includes(status ?? '') ? (status as InvoiceStatus) : undefined,
    page: Math.max(1, Math.floor(Number(params.get('page'))) || 1),
    pageSize: INVOICES_PAGE_SIZE,
  };
}

export default function PlansPage() {
  usePageTitle('Plans & Billing');
  const plans = usePlans();
  const { params, update } = useListParams();
  const query = readInvoiceQuery(params);
  const invoices = useInvoices(query);
  const [editing, setEditing] = useState<{ plan: Plan | null } | null>(null);
  const [action, setAction] = useState<InvoiceAction | null>(null);
  const [isIssuing, setIsIssuing] = useState(false);
  const canManage = plans.data?.canManage ?? false;
  const total = invoices.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / INVOICES_PAGE_SIZE));

  const onSaved = (plan: Plan, verb: 'created' | 'saved') => {
    setEditing(null);
    toast.success(verb === 'created' ? 'Plan created' : 'Plan saved', `${plan.name}: ${plan.organizations} organization${plan.organizations === 1 ? '' : 's'} on it.`);
    if (plan.overLimit.length > 0) toast.info('Limits below current use', plan.overLimit.map(overLimitText).join('. '));
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Plans & Billing
        </Title>
        <Text c="dimmed" size="sm">
          Plans with a monthly price in USD and their limits, the organizations on each, the monthly invoices and the revenue they bring.
        </Text>
      </div>

      {plans.data && !canManage ? (
        <Paper withBorder radius="md" p="sm">
          <Text size="sm" c="dimmed">
            Your platform role can view plans and invoices but not change them.
          </Text>
        </Paper>
      ) : null}

      <RevenueCard />

      <Paper withBorder radius="md" component="section" aria-labelledby="plans-heading">
        <Group justify="space-between" p="md" pb="xs" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="plans-heading">
              Plans
            </Title>
            <Text size="sm" c="dimmed">
              Limits apply where sites, bays, members and bookings are created; empty means unlimited.
            </Text>
          </div>
          {canManage ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing({ plan: null })}>
              New plan
            </Button>
          ) : null}
        </Group>
        {plans.isPending ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading plans" />
          </Group>
        ) : plans.isError || !plans.data ? (
          <Alert styles={alertStyles} color="red" m="md" role="alert" title="Plans not loaded">
            {errorMessage(plans.error, 'Try again in a moment.')}
          </Alert>
        ) : plans.data.items.length === 0 ? (
          <Text c="dimmed" ta="center" p="xl">
            No plans yet.
          </Text>
        ) : (
          <PlansTable plans={plans.data.items} canManage={canManage} onEdit={(plan) => setEditing({ plan })} />
        )}
      </Paper>

      <Paper withBorder radius="md" component="section" aria-labelledby="invoices-heading">
        <Group justify="space-between" align="flex-end" p="md" pb="xs" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="invoices-heading">
              Invoices
            </Title>
            <Text size="sm" c="dimmed">
              Issued on the 1st of each month for the month before, newest first.
            </Text>
          </div>
          <Group align="flex-end" gap="sm">
            <SelectField label="Status" data={STATUS_OPTIONS} value={query.status ?? ''} onChange={(event) => update({ status: event.currentTarget.value || null })} />
            {canManage ? (
              <Button variant="default" leftSection={<IconFileInvoice size={16} aria-hidden />} onClick={() => setIsIssuing(true)}>
                Issue invoices now
              </Button>
            ) : null}
          </Group>
        </Group>
        {invoices.isPending ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading invoices" />
          </Group>
        ) : invoices.isError && !invoices.data ? (
          <Alert styles={alertStyles} color="red" m="md" role="alert" title="Invoices not loaded">
            {errorMessage(invoices.error, 'Try again in a moment.')}
          </Alert>
        ) : !invoices.data || invoices.data.items.length === 0 ? (
          <Text c="dimmed" ta="center" p="xl">
            {query.status ? `No ${query.status} invoices.` : 'No invoices yet.'}
          </Text>
        ) : (
          <InvoicesTable invoices={invoices.data.items} canManage={invoices.data.canManage} onAction={setAction} />
        )}
        <Group justify="space-between" p="md" pt="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            {invoices.data ? `${total} invoice${total === 1 ? '' : 's'}` : ''}
          </Text>
          {pages > 1 ? (
            <Pagination
              total={pages}
              value={query.page}
              onChange={(page) => update({ page: String(page) }, true)}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          ) : null}
        </Group>
      </Paper>

      {editing ? <PlanFormModal opened plan={editing.plan} onClose={() => setEditing(null)} onSaved={onSaved} /> : null}
      <InvoiceActionModal action={action} onClose={() => setAction(null)} />
      <IssueInvoicesModal opened={isIssuing} onClose={() => setIsIssuing(false)} />
    </Stack>
  );
}
