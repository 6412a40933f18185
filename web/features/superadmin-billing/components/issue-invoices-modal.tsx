import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { INVOICE_DUE_DAYS, lastMonths, periodLabel, previousPeriodKey, type IssueInvoicesResult } from '../../../../domain/billing';
import { SelectField } from '../../../components/ui/select-field';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useIssueInvoices } from '../api/issue-invoices';
import { alertStyles } from './billing-format';

type Props = { opened: boolean; onClose: () => void };

/** The month's invoices now, as the monthly run on the 1st issues them; a month already invoiced issues nothing again. */
export function IssueInvoicesModal({ opened, onClose }: Props) {
  const issue = useIssueInvoices();
  const now = new Date();
  const latest = previousPeriodKey(now);
  // The twelve months that have ended, the latest first.
  const months = lastMonths(new Date(`${latest}-01T00:00:00Z`), 12).reverse();
  const [period, setPeriod] = useState(latest);
  const [result, setResult] = useState<IssueInvoicesResult | null>(null);
  useEffect(() => {
    if (!opened) return;
    setPeriod(latest);
    setResult(null);
    issue.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh dialog each time it opens
  }, [opened]);

  const run = () =>
    issue.mutate(
      { period },
      {
        onSuccess: (answer) => {
          setResult(answer);
          toast.success('Invoices issued', `${periodLabel(answer.period)}: ${answer.issued} issued, ${answer.alreadyIssued} already issued.`);
        },
      },
    );

  return (
    <Modal opened={opened} onClose={onClose} title="Issue invoices now" size="lg">
      <Stack gap="md">
        {result ? (
          <div data-testid="issue-result">
            <Text size="sm" fw={600}>
              {periodLabel(result.period)}: {result.issued} invoice{result.issued === 1 ? '' : 's'} issued, {result.alreadyIssued} already issued.
            </Text>
            {result.skipped.length > 0 ? (
              <>
                <Text size="sm" mt="xs">
                  Not invoiced:
                </Text>
                <List size="sm">
                  {result.skipped.map((s) => (
                    <List.Item key={s.orgId}>
                      {s.orgName}: {s.reason}
                    </List.Item>
                  ))}
                </List>
              </>
            ) : null}
          </div>
        ) : (
          <>
            <Text size="sm">
              Each active organization on a paid plan gets one invoice for the month: its plan’s monthly price (prorated in the month it joined), due{' '}
              {INVOICE_DUE_DAYS} days after issue. An organization already invoiced for the month is left as it is. The same run happens on the 1st of
              every month for the month before.
            </Text>
            <SelectField label="Month" data={months.map((m) => ({ value: m, label: periodLabel(m) }))} value={period} onChange={(event) => setPeriod(event.currentTarget.value)} />
          </>
        )}
        {issue.isError ? (
          <Alert styles={alertStyles} color="red" role="alert" title="Not issued">
            {errorMessage(issue.error, 'The invoices could not be issued')}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          {result ? (
            <Button onClick={onClose}>Done</Button>
          ) : (
            <>
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button loading={issue.isPending} onClick={run}>
                Issue invoices
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
