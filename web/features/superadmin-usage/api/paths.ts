// The usage endpoints and query keys. Keys start with ['platform'], so the platform screens'
// Refresh and changes elsewhere (a new organization) bring the figures up to date too.

import type { UsagePeriodDays, UsageQuery } from '../../../../domain/usage';

function search(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const usagePaths = {
  usage: (query: UsageQuery) => `/api/platform/usage${search(query)}`,
  csv: (days: UsagePeriodDays, orgId?: string) => `/api/platform/usage.csv${search({ days, orgId })}`,
} as const;

export const usageKeys = {
  all: ['platform', 'usage'] as const,
  report: (query: UsageQuery) => ['platform', 'usage', query] as const,
};
