import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '../components/ui/page-loader';
import { RequireArea } from './guards/require-area';
import { RootLayout } from './routes/root-layout';
import { RouteErrorPage } from './routes/route-error-page';
import { queryClient } from '../lib/query-client';
import { bookingInfoQueryOptions } from '../features/public-booking/api/get-booking-info';
import { publicOrganizationsQueryOptions } from '../features/public-booking/api/get-public-organizations';

type LazyComponent = () => Promise<{ Component: ComponentType }>;

/**
 * A screen whose code is loaded when first visited (spec §2: lazy, with 'Loading...'), with only the
 * styles the app carries (providers.tsx): the booking request form and the portal's frame, so a
 * haulier's first visit on a phone loads no other component's styles (issue 25). A component added
 * to those screens needs its stylesheet added there; light-styles.test.ts checks it.
 */
const lightScreen =
  (load: () => Promise<{ default: ComponentType }>): LazyComponent =>
  async () => ({ Component: (await load()).default });

/** A named export, for modules that hold more than one screen or layout; styles as lightScreen. */
const lightNamed =
  <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyComponent =>
  async () => ({ Component: (await load())[name] });

/** The same, with every Mantine component's styles (full-styles.ts) loaded before it shows. */
const withAllStyles =
  (lazy: LazyComponent): LazyComponent =>
  async () => (await Promise.all([lazy(), import('./full-styles')]))[0];

const screen = (load: () => Promise<{ default: ComponentType }>) => withAllStyles(lightScreen(load));
const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => withAllStyles(lightNamed(load, name));

const orgLayout = named(() => import('./layouts/org-layout'), 'OrgLayout');

const orgChildren: RouteObject[] = [
  { index: true, element: <Navigate to="dashboard" replace /> },
  { path: 'dashboard', lazy: screen(() => import('../features/org-dashboard/routes/org-dashboard-page')) },
  { path: 'schedule', lazy: screen(() => import('../features/org-schedule/routes/org-schedule-page')) },
  { path: 'bookings', lazy: screen(() => import('../features/org-bookings/routes/org-bookings-page')) },
  { path: 'bookings/new', lazy: screen(() => import('../features/org-bookings/routes/org-bookings-page')) },
  { path: 'bays', lazy: screen(() => import('../features/org-bays/routes/org-bays-page')) },
  { path: 'blackouts', lazy: screen(() => import('../features/org-blackouts/routes/org-blackouts-page')) },
  { path: 'standing-bookings', lazy: screen(() => import('../features/org-standing-bookings/routes/org-standing-bookings-page')) },
  { path: 'tenants', lazy: screen(() => import('../features/org-tenants/routes/org-tenants-page')) },
  { path: 'tenants/:tenantId', lazy: screen(() => import('../features/org-tenants/routes/tenant-page')) },
  { path: 'ops/live', lazy: screen(() => import('../features/org-ops/routes/ops-live-page')) },
  { path: 'ops/scan', lazy: screen(() => import('../features/plate-scan/routes/plate-scan-page')) },
  { path: 'reports', lazy: screen(() => import('../features/org-reports/routes/org-reports-page')) },
  { path: 'settings', lazy: screen(() => import('../features/org-settings/routes/org-settings-page')) },
  { path: 'settings/number-plates', lazy: screen(() => import('../features/org-settings/routes/number-plates-page')) },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: () => <PageLoader minHeight="100vh" />,
    children: [
      { index: true, lazy: screen(() => import('../features/landing/routes/landing-page')) },
      { path: 'login', lazy: screen(() => import('../features/auth/routes/admin-login-page')) },
      { path: 'signup', lazy: screen(() => import('../features/auth/routes/signup-page')) },
      { path: 'reset-password', lazy: screen(() => import('../features/auth/routes/reset-password-page')) },
      { path: 'auth/confirm', lazy: screen(() => import('../features/auth/routes/confirm-email-page')) },
      { path: 'accept-invitation', lazy: screen(() => import('../features/auth/routes/accept-invitation-page')) },
      { path: 'developers', lazy: screen(() => import('../features/developers/routes/developer-portal-page')) },
      // The gate kiosk: a tablet signed in by its device secret, not a staff session (decision 041).
      { path: 'kiosk', lazy: screen(() => import('../features/kiosk/routes/kiosk-page')) },
      {
        path: 'superadmin',
        children: [
          { index: true, lazy: screen(() => import('../features/superadmin/routes/superadmin-login-page')) },
          {
            element: <RequireArea area="superadmin" />,
            children: [
              {
                lazy: named(() => import('./layouts/superadmin-layout'), 'SuperAdminLayout'),
                children: [
                  { path: 'dashboard', lazy: screen(() => import('../features/superadmin/routes/superadmin-dashboard-page')) },
                  { path: 'settings', lazy: screen(() => import('../features/superadmin-settings/routes/platform-settings-page')) },
                  { path: 'organizations', lazy: screen(() => import('../features/superadmin/routes/organizations-page')) },
                  { path: 'organizations/:orgId', lazy: screen(() => import('../features/superadmin/routes/organization-page')) },
                  { path: 'usage', lazy: screen(() => import('../features/superadmin-usage/routes/usage-page')) },
                  { path: 'plans', lazy: screen(() => import('../features/superadmin-billing/routes/plans-page')) },
                  { path: 'audit', lazy: screen(() => import('../features/superadmin/routes/audit-page')) },
                  { path: 'security', lazy: screen(() => import('../features/auth/routes/security-page')) },
                ],
              },
            ],
          },
        ],
      },
      {
        path: 'orgadmin',
        children: [
          { index: true, lazy: screen(() => import('../features/org/routes/orgadmin-login-page')) },
          {
            element: <RequireArea area="org" />,
            children: [
              {
                lazy: orgLayout,
                children: [
                  { path: 'dashboard', lazy: screen(() => import('../features/org-dashboard/routes/org-dashboard-page')) },
                ],
              },
            ],
          },
        ],
      },
      {
        path: 'org',
        element: <RequireArea area="org" />,
        children: [{ lazy: orgLayout, children: orgChildren }],
      },
      {
        path: 'dockmaster',
        children: [
          { index: true, lazy: screen(() => import('../features/dockmaster/routes/dockmaster-login-page')) },
          {
            element: <RequireArea area="dockmaster" />,
            children: [
              {
                lazy: named(() => import('./layouts/dockmaster-layout'), 'DockmasterLayout'),
                children: [
                  { path: 'dashboard', lazy: screen(() => import('../features/dock-gate/routes/dock-dashboard-page')) },
                  { path: 'scan', lazy: screen(() => import('../features/plate-scan/routes/plate-scan-page')) },
                  { path: 'queue', lazy: screen(() => import('../features/dock-gate/routes/dock-queue-page')) },
                ],
              },
            ],
          },
        ],
      },
      {
        path: 'book',
        lazy: lightNamed(() => import('./layouts/public-layout'), 'PublicLayout'),
        children: [
          { index: true, lazy: screen(() => import('../features/public-booking/routes/book-landing-page')) },
          {
            path: 'request',
            // The form's data starts loading with the screen's code, not after it has mounted.
            loader: () => {
              void queryClient.prefetchQuery(publicOrganizationsQueryOptions());
              void queryClient.prefetchQuery(bookingInfoQueryOptions());
              return null;
            },
            lazy: lightScreen(() => import('../features/public-booking/routes/booking-request-page')),
          },
          { path: 'help', lazy: screen(() => import('../features/public-booking/routes/booking-help-page')) },
          { path: 'terms', lazy: screen(() => import('../features/public-booking/routes/booking-terms-page')) },
          { path: 'manage/:token', lazy: screen(() => import('../features/public-booking/routes/manage-booking-page')) },
          { path: 'account', lazy: screen(() => import('../features/haulier-account/routes/account-page')) },
          { path: 'account/standing/new', lazy: screen(() => import('../features/haulier-account/routes/standing-request-page')) },
          { path: 'account/sign-in', lazy: screen(() => import('../features/haulier-account/routes/sign-in-page')) },
        ],
      },
      { path: '*', lazy: screen(() => import('./routes/not-found-page')) },
    ],
  },
];

export const router = createBrowserRouter(routes);
