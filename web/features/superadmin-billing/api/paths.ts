// The plans-and-billing query keys (the endpoints are named by their contract keys). Keys start with
// ['platform'], so a change here also refreshes the platform screens that show plans and invoices
// (the dashboard's revenue card, an organization's page), and their changes refresh these.

import type { InvoiceListQuery } from '../../../../domain/billing';

export const billingKeys = {
  all: ['platform', 'billing'] as const,
  plans: ['platform', 'billing', 'plans'] as const,
  invoices: (query: InvoiceListQuery) => ['platform', 'billing', 'invoices', query] as const,
  revenue: ['platform', 'billing', 'revenue'] as const,
  organizationPlan: (orgId: string) => ['platform', 'billing', 'organization-plan', orgId] as const,
};
