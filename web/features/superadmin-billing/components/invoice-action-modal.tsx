import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { PAYMENT_REFERENCE_MAX, VOID_REASON_MAX, markInvoicePaidSchema, voidInvoiceSchema, type Invoice } from '../../../../domain/billing';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useChangeInvoice } from '../api/change-invoice';
import { alertStyles, formatUsd } from './billing-format';

export type InvoiceAction = { kind: 'mark-paid' | 'void'; invoice: Pick<Invoice, 'id' | 'number' | 'orgName' | 'amountDue'> };

type Props = { action: InvoiceAction | null; onClose: () => void };

/**
 * Confirms marking an invoice paid by hand (the payment's reference is required and kept) or voiding
 * it (a reason is required). The server decides; its message is shown as it is.
 */
export function InvoiceActionModal({ action, onClose }: Props) {
  const change = useChangeInvoice();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The dialog keeps its texts while it closes.
  const [shown, setShown] = useState(action);
  useEffect(() => {
    if (!action) return;
    setShown(action);
    setText('');
    setError(null);
    change.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh dialog each time it opens
  }, [action]);
  if (!shown) return null;
  const { invoice } = shown;
  const isPaid = shown.kind === 'mark-paid';

  const confirm = () => {
    const parsed = isPaid ? markInvoicePaidSchema.safeParse({ reference: text }) : voidInvoiceSchema.safeParse({ reason: text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Required');
      return;
    }
    const value = isPaid ? (parsed.data as { reference: string }).reference : (parsed.data as { reason: string }).reason;
    change.mutate(isPaid ? { kind: 'mark-paid', invoiceId: invoice.id, reference: value } : { kind: 'void', invoiceId: invoice.id, reason: value }, {
      onSuccess: (result) => {
        if (isPaid) toast.success('Invoice paid', `${result.number} (${formatUsd(result.amountPaid)}) is marked paid.`);
        else toast.success('Invoice voided', `${result.number} is void.`);
        onClose();
      },
    });
  };

  return (
    <Modal opened={!!action} onClose={onClose} title={isPaid ? `Mark ${invoice.number} paid?` : `Void ${invoice.number}?`} size="md">
      <Stack gap="md">
        <Text size="sm">
          {isPaid
            ? `${invoice.orgName} paid ${formatUsd(invoice.amountDue)} outside the payment provider (a bank transfer, a cheque). The payment is recorded today and counts as revenue.`
            : `${invoice.orgName} will not be asked to pay ${formatUsd(invoice.amountDue)}. A void invoice cannot be paid or reopened.`}
        </Text>
        {isPaid ? (
          <TextInput
            label="Payment reference"
            description="The bank transfer reference or a note; kept with the invoice and in the audit log."
            required
            maxLength={PAYMENT_REFERENCE_MAX}
            value={text}
            error={error}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setError(null);
            }}
            data-autofocus
          />
        ) : (
          <Textarea
            label="Reason"
            description="Kept in the audit log."
            required
            autosize
            minRows={2}
            maxLength={VOID_REASON_MAX}
            value={text}
            error={error}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setError(null);
            }}
            data-autofocus
          />
        )}
        {change.isError ? (
          <Alert styles={alertStyles} color="red" role="alert" title="Not changed">
            {errorMessage(change.error, 'The invoice could not be changed')}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={isPaid ? undefined : 'red.8'} loading={change.isPending} onClick={confirm}>
            {isPaid ? 'Mark paid' : 'Void invoice'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
