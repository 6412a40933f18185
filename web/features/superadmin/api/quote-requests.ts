import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuoteList, QuoteListQuery, QuoteRequestItem } from '../../../../domain/platform-admin';
import { apiCall } from '../../../lib/api-client';
import { platformKeys } from './paths';

/** GET /api/platform/quote-requests — newest first, with the count of each status. */
export function getQuoteRequests(query: QuoteListQuery): Promise<QuoteList> {
  return apiCall('GET /api/platform/quote-requests', { query });
}

export function quoteRequestsQueryOptions(query: QuoteListQuery) {
  return queryOptions({ queryKey: platformKeys.quoteList(query), queryFn: () => getQuoteRequests(query) });
}

export function useQuoteRequests(query: QuoteListQuery) {
  return useQuery({ ...quoteRequestsQueryOptions(query), placeholderData: keepPreviousData });
}

/** How many quote requests are new (the badges on the dashboard and the organizations page). */
export function useNewQuoteCount() {
  const list = useQuery(quoteRequestsQueryOptions({ status: 'new', pageSize: 1 }));
  return list.data?.counts.new;
}

/** GET /api/platform/quote-requests/{quoteId}. */
export function getQuoteRequest(quoteId: string): Promise<QuoteRequestItem> {
  return apiCall('GET /api/platform/quote-requests/:quoteId', { params: { quoteId } });
}

export function useQuoteRequest(quoteId: string | null) {
  return useQuery({ queryKey: platformKeys.quote(quoteId ?? ''), queryFn: () => getQuoteRequest(quoteId!), enabled: !!quoteId });
}

/** POST …/contacted — a new quote request is marked as contacted. */
export function markQuoteContacted(quoteId: string): Promise<QuoteRequestItem> {
  return apiCall('POST /api/platform/quote-requests/:quoteId/contacted', { params: { quoteId } });
}

export function useMarkQuoteContacted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markQuoteContacted,
    onSuccess: (quote) => {
      queryClient.setQueryData(platformKeys.quote(quote.id), quote);
      return queryClient.invalidateQueries({ queryKey: platformKeys.quotes });
    },
  });
}
