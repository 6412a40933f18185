import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invoice } from '../../../../domain/billing';
import { api } from '../../../lib/api-client';
import { billingPaths } from './paths';

export type InvoiceChange = { kind: 'mark-paid'; invoiceId: string; reference: string } | { kind: 'void'; invoiceId: string; reason: string };

/** POST …/mark-paid (with the payment's reference) or …/void (with a reason). */
export function changeInvoice(change: InvoiceChange): Promise<Invoice> {
  return change.kind === 'mark-paid'
    ? api<Invoice>(billingPaths.markPaid(change.invoiceId), { method: 'POST', body: { reference: change.reference } })
    : api<Invoice>(billingPaths.voidInvoice(change.invoiceId), { method: 'POST', body: { reason: change.reason } });
}

/** Marks an invoice paid or voids it; every platform figure (revenue, invoices, organization pages) is refreshed. */
export function useChangeInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['platform'] }),
  });
}
