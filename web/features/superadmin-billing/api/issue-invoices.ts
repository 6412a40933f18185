import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IssueInvoicesInput, IssueInvoicesResult } from '../../../../domain/billing';
import { apiCall } from '../../../lib/api-client';

/** POST /api/platform/invoices/issue — a month that has ended, once per organization. */
export function issueInvoices(input: IssueInvoicesInput): Promise<IssueInvoicesResult> {
  return apiCall('POST /api/platform/invoices/issue', { body: input });
}

export function useIssueInvoices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueInvoices,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['platform'] }),
  });
}
