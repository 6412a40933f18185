import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { billingContract as contract } from '../../../domain/contract/billing.contract';
import type { ModuleOptions } from '../../context';
import { requirePlatformAdmin } from '../../plugins/auth';
import { issueInvoicesNow } from './invoice-run.service';
import { invoicePdf, listInvoices, markInvoicePaid, voidInvoice } from './invoices.service';
import { assignPlan, getOrganizationBilling } from './organization-plan.service';
import { createPlan, listPlans, updatePlan } from './plans.service';
import { revenue } from './revenue.service';

// /api/platform/plans, …/invoices, …/revenue and an organization's plan (issue 12). Every route:
// 401 signed out, 403 without a platform role (checked before the body or query is read); the
// writes also 403 for platform support (docs/decisions/022-billing.md).

const security = [{ bearer: [] }];
const tags = ['billing'];

const billingRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('preValidation', async (request) => {
    requirePlatformAdmin(request);
  });

  app.get(
    '/platform/plans',
    {
      schema: {
        ...contract['GET /api/platform/plans'],
        tags,
        summary: 'Every plan with its monthly price (USD), limits, the organizations on it, and those whose use is above a limit',
        security,
      },
    },
    async (request) => listPlans(ctx, requirePlatformAdmin(request)),
  );

  app.post(
    '/platform/plans',
    {
      schema: {
        ...contract['POST /api/platform/plans'],
        tags,
        summary: 'Creates a plan (super admins and platform owners). Limits: a whole number, or null for unlimited',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await createPlan(ctx, requirePlatformAdmin(request), request.body, request.ip)),
  );

  app.patch(
    '/platform/plans/:planId',
    {
      schema: {
        ...contract['PATCH /api/platform/plans/:planId'],
        tags,
        summary: 'Changes a plan (the fields sent). A limit below an organization’s current use is allowed; the answer flags those organizations',
        security,
      },
    },
    async (request) => updatePlan(ctx, requirePlatformAdmin(request), request.params.planId, request.body, request.ip),
  );

  app.get(
    '/platform/organizations/:orgId/plan',
    {
      schema: {
        ...contract['GET /api/platform/organizations/:orgId/plan'],
        tags,
        summary: "An organization's plan, its use against each limit, and the plans it may be put on",
        security,
      },
    },
    async (request) => getOrganizationBilling(ctx, requirePlatformAdmin(request), request.params.orgId),
  );

  app.put(
    '/platform/organizations/:orgId/plan',
    {
      schema: {
        ...contract['PUT /api/platform/organizations/:orgId/plan'],
        tags,
        summary:
          'Puts an organization on a plan (planId null: no plan — unlimited, not invoiced). Super admins and platform owners. A plan the organization would be over answers 409 plan_change_over_limits with details.violations (what breaks), unless confirm: true',
        security,
      },
    },
    async (request) =>
      assignPlan(ctx, requirePlatformAdmin(request), request.params.orgId, request.body.planId, request.ip, { confirm: request.body.confirm === true }),
  );

  app.get(
    '/platform/invoices',
    {
      schema: {
        ...contract['GET /api/platform/invoices'],
        tags,
        summary: 'Invoices, newest first, filtered by status and organization, a page at a time',
        security,
      },
    },
    async (request) => listInvoices(ctx, requirePlatformAdmin(request), request.query),
  );

  app.post(
    '/platform/invoices/issue',
    {
      schema: {
        ...contract['POST /api/platform/invoices/issue'],
        tags,
        summary: "Issues the invoices of a month that has ended ('YYYY-MM', UTC) now, as the monthly job does; once per organization and month",
        security,
      },
    },
    async (request) => issueInvoicesNow(ctx, requirePlatformAdmin(request), request.body.period, request.ip),
  );

  app.post(
    '/platform/invoices/:invoiceId/mark-paid',
    {
      schema: {
        ...contract['POST /api/platform/invoices/:invoiceId/mark-paid'],
        tags,
        summary: 'Marks an open invoice paid by hand, with the payment’s reference (409 when already paid or void)',
        security,
      },
    },
    async (request) => markInvoicePaid(ctx, requirePlatformAdmin(request), request.params.invoiceId, request.body.reference, request.ip),
  );

  app.post(
    '/platform/invoices/:invoiceId/void',
    {
      schema: {
        ...contract['POST /api/platform/invoices/:invoiceId/void'],
        tags,
        summary: 'Voids an open invoice, with a reason (409 when paid or already void)',
        security,
      },
    },
    async (request) => voidInvoice(ctx, requirePlatformAdmin(request), request.params.invoiceId, request.body.reason, request.ip),
  );

  app.get(
    '/platform/invoices/:invoiceId/pdf',
    {
      schema: {
        ...contract['GET /api/platform/invoices/:invoiceId/pdf'],
        tags,
        summary: 'The invoice as a PDF (application/pdf, as an attachment named after its number)',
        security,
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await invoicePdf(ctx, request.params.invoiceId);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.get(
    '/platform/revenue',
    {
      schema: {
        ...contract['GET /api/platform/revenue'],
        tags,
        summary: 'Revenue by calendar month (UTC) of payment, the last 12 months: amount_paid of paid invoices, as the dashboard’s revenue card counts it',
        security,
      },
    },
    async () => revenue(ctx),
  );
};

export default billingRoutes;
