import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IssueInvoicesInput, IssueInvoicesResult } from '../../../../domain/billing';
import { api } from '../../../lib/api-client';
import { billingPaths } from './paths';

/** POST /api/platform/invoices/issue — a month that has ended, once per organization. */
export function issueInvoices(input: IssueInvoicesInput): Promise<IssueInvoicesResult> {
  return api<IssueInvoicesResult>(billingPaths.issueInvoices, { method: 'POST', body: input });
}

export function useIssueInvoices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueInvoices,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['platform'] }),
  });
}
