import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invoice } from '../../../../domain/billing';
import { apiCall } from '../../../lib/api-client';

export type InvoiceChange = { kind: 'mark-paid'; invoiceId: string; reference: string } | { kind: 'void'; invoiceId: string; reason: string };

/** POST …/mark-paid (with the payment's reference) or …/void (with a reason). */
export function changeInvoice(change: InvoiceChange): Promise<Invoice> {
  return change.kind === 'mark-paid'
    ? apiCall('POST /api/platform/invoices/:invoiceId/mark-paid', { params: { invoiceId: change.invoiceId }, body: { reference: change.reference } })
    : apiCall('POST /api/platform/invoices/:invoiceId/void', { params: { invoiceId: change.invoiceId }, body: { reason: change.reason } });
}

/** Marks an invoice paid or voids it; every platform figure (revenue, invoices, organization pages) is refreshed. */
export function useChangeInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['platform'] }),
  });
}
