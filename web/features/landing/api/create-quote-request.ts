import { useMutation } from '@tanstack/react-query';
import type { QuoteRequestInput } from '../../../../domain/quote-request';
import { apiCall } from '../../../lib/api-client';

/** POST /api/public/quote-requests — stored for platform admins to follow up. */
export function createQuoteRequest(input: QuoteRequestInput): Promise<unknown> {
  return apiCall('POST /api/public/quote-requests', { body: input, anonymous: true });
}

export function useCreateQuoteRequest() {
  return useMutation({ mutationFn: createQuoteRequest });
}
