// The platform-administration endpoints and query keys, in one place. Every key starts with
// ['platform'], so a suspension or a Refresh can invalidate everything the screens show.

import type { OrganizationListQuery, QuoteListQuery, StatsPeriodDays } from '../../../../domain/platform-admin';

export const platformPaths = {
  stats: (days: StatsPeriodDays) => `/api/platform/stats?days=${days}`,
  organizations: '/api/platform/organizations',
  organization: (orgId: string) => `/api/platform/organizations/${encodeURIComponent(orgId)}`,
  organizationAudit: (orgId: string, page: number, pageSize: number) =>
    `/api/platform/organizations/${encodeURIComponent(orgId)}/audit?page=${page}&pageSize=${pageSize}`,
  suspend: (orgId: string) => `/api/platform/organizations/${encodeURIComponent(orgId)}/suspend`,
  reactivate: (orgId: string) => `/api/platform/organizations/${encodeURIComponent(orgId)}/reactivate`,
  recentActivity: (limit: number) => `/api/platform/recent-activity?limit=${limit}`,
  organizationOptions: '/api/platform/organization-options',
  quoteRequests: '/api/platform/quote-requests',
  quoteRequest: (quoteId: string) => `/api/platform/quote-requests/${encodeURIComponent(quoteId)}`,
  quoteContacted: (quoteId: string) => `/api/platform/quote-requests/${encodeURIComponent(quoteId)}/contacted`,
  quoteConvert: (quoteId: string) => `/api/platform/quote-requests/${encodeURIComponent(quoteId)}/convert`,
} as const;

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
