import { z } from 'zod';
import {
  assignPlanSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoiceSchema,
  issueInvoicesResultSchema,
  issueInvoicesSchema,
  markInvoicePaidSchema,
  organizationBillingSchema,
  planInputSchema,
  planListSchema,
  planSchema,
  planUpdateSchema,
  revenueSchema,
  voidInvoiceSchema,
} from '../billing';
import { defineContract } from './define-contract';

// Plans, invoices, revenue and an organization's plan (server/modules/billing/billing.routes.ts).

const planParams = z.object({ planId: z.string().max(100) });
const orgParams = z.object({ orgId: z.string().max(100) });
const invoiceParams = z.object({ invoiceId: z.string().max(100) });

export const billingContract = defineContract({
  'GET /api/platform/plans': { response: { 200: planListSchema } },
  'POST /api/platform/plans': { body: planInputSchema, response: { 201: planSchema } },
  'PATCH /api/platform/plans/:planId': { params: planParams, body: planUpdateSchema, response: { 200: planSchema } },
  'GET /api/platform/organizations/:orgId/plan': { params: orgParams, response: { 200: organizationBillingSchema } },
  'PUT /api/platform/organizations/:orgId/plan': { params: orgParams, body: assignPlanSchema, response: { 200: organizationBillingSchema } },
  'GET /api/platform/invoices': { querystring: invoiceListQuerySchema, response: { 200: invoiceListSchema } },
  'POST /api/platform/invoices/issue': { body: issueInvoicesSchema, response: { 200: issueInvoicesResultSchema } },
  'POST /api/platform/invoices/:invoiceId/mark-paid': { params: invoiceParams, body: markInvoicePaidSchema, response: { 200: invoiceSchema } },
  'POST /api/platform/invoices/:invoiceId/void': { params: invoiceParams, body: voidInvoiceSchema, response: { 200: invoiceSchema } },
  'GET /api/platform/invoices/:invoiceId/pdf': { params: invoiceParams, produces: ['application/pdf'] },
  'GET /api/platform/revenue': { response: { 200: revenueSchema } },
});
