import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { InvoiceList, InvoiceListQuery } from '../../../../domain/billing';
import { apiCall } from '../../../lib/api-client';
import { billingKeys } from './paths';

/** GET /api/platform/invoices — newest first, by status and organization, a page at a time. */
export function getInvoices(query: InvoiceListQuery): Promise<InvoiceList> {
  return apiCall('GET /api/platform/invoices', { query });
}

export function useInvoices(query: InvoiceListQuery, options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: billingKeys.invoices(query), queryFn: () => getInvoices(query), placeholderData: keepPreviousData, enabled: options.enabled ?? true });
}
