// The platform-administration query keys (the endpoints are named by their contract keys). Every
// key starts with ['platform'], so a suspension or a Refresh can invalidate everything the screens show.

import type { OrganizationListQuery, QuoteListQuery, StatsPeriodDays } from '../../../../domain/platform-admin';

export const platformKeys = {
  all: ['platform'] as const,
  stats: (days: StatsPeriodDays) => ['platform', 'stats', days] as const,
  organizations: ['platform', 'organizations'] as const,
  organizationList: (query: OrganizationListQuery) => ['platform', 'organizations', 'list', query] as const,
  organization: (orgId: string) => ['platform', 'organizations', 'detail', orgId] as const,
  organizationAudit: (orgId: string, page: number) => ['platform', 'organizations', 'audit', orgId, page] as const,
  recentActivity: (limit: number) => ['platform', 'recent-activity', limit] as const,
  organizationOptions: ['platform', 'organization-options'] as const,
  quotes: ['platform', 'quote-requests'] as const,
  quoteList: (query: QuoteListQuery) => ['platform', 'quote-requests', 'list', query] as const,
  quote: (quoteId: string) => ['platform', 'quote-requests', 'detail', quoteId] as const,
};
