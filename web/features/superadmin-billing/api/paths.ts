// The plans-and-billing endpoints and query keys, in one place. Keys start with ['platform'], so a
// change here also refreshes the platform screens that show plans and invoices (the dashboard's
// revenue card, an organization's page), and their changes refresh these.

import type { InvoiceListQuery } from '../../../../domain/billing';

export const billingPaths = {
  plans: '/api/platform/plans',
  plan: (planId: string) => `/api/platform/plans/${encodeURIComponent(planId)}`,
  invoices: (query: InvoiceListQuery) => {
    const params = new URLSearchParams();
    if (query.status) params.set('status', query.status);
    if (query.orgId) params.set('orgId', query.orgId);
    if (query.page) params.set('page', String(query.page));
    if (query.pageSize) params.set('pageSize', String(query.pageSize));
    const text = params.toString();
    return `/api/platform/invoices${text ? `?${text}` : ''}`;
  },
  issueInvoices: '/api/platform/invoices/issue',
  markPaid: (invoiceId: string) => `/api/platform/invoices/${encodeURIComponent(invoiceId)}/mark-paid`,
  voidInvoice: (invoiceId: string) => `/api/platform/invoices/${encodeURIComponent(invoiceId)}/void`,
  invoicePdf: (invoiceId: string) => `/api/platform/invoices/${encodeURIComponent(invoiceId)}/pdf`,
  revenue: '/api/platform/revenue',
  organizationPlan: (orgId: string) => `/api/platform/organizations/${encodeURIComponent(orgId)}/plan`,
} as const;

export const billingKeys = {
  all: ['platform', 'billing'] as const,
  plans: ['platform', 'billing', 'plans'] as const,
  invoices: (query: InvoiceListQuery) => ['platform', 'billing', 'invoices', query] as const,
  revenue: ['platform', 'billing', 'revenue'] as const,
  organizationPlan: (orgId: string) => ['platform', 'billing', 'organization-plan', orgId] as const,
};
