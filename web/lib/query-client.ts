import { QueryClient } from '@tanstack/react-query';

/** Spec §2/§9: data queries retry once and never refetch when the window regains focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false },
      mutations: { retry: 0 },
    },
  });
}

/** The app's one client: the providers render with it and route loaders prefetch into it. */
export const queryClient = createQueryClient();
