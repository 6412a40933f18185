// The usage query keys (the endpoints are named by their contract keys). Keys start with
// ['platform'], so the platform screens' Refresh and changes elsewhere (a new organization) bring
// the figures up to date too.

import type { UsageQuery } from '../../../../domain/usage';

export const usageKeys = {
  all: ['platform', 'usage'] as const,
  report: (query: UsageQuery) => ['platform', 'usage', query] as const,
};
