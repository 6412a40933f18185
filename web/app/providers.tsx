import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/charts/styles.css';
import './toasts.css';
import './tables.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { MaintenanceBanner } from '../components/platform/maintenance-banner';
import { AuthProvider } from '../features/auth/auth-provider';
import { installErrorReporter } from '../lib/error-reporter';
import { queryClient } from '../lib/query-client';
import { cssVariablesResolver, theme } from './theme';
import { ToastHost } from './toast-host';

/** Spec §9 toasts: 5000 ms each, at most 3 visible. */
const TOAST_AUTO_CLOSE_MS = 5000;
const TOAST_LIMIT = 3;

export function AppProviders({ children }: { children: ReactNode }) {
  // Uncaught errors and unhandled rejections go to the error-monitoring screen (issue 12).
  useEffect(() => installErrorReporter(), []);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {/* Top right, below the header (64 px): clear of the navigation, and beside, not over, the
          centred forms and sign-in cards on wide screens. */}
      <ToastHost
        limit={TOAST_LIMIT}
        autoClose={TOAST_AUTO_CLOSE_MS}
        position="top-right"
        containerWidth={340}
        zIndex={400}
      />
      <QueryClientProvider client={queryClient}>
        {/* Above every screen, public or signed in (issue 12): set on /superadmin/settings. */}
        <MaintenanceBanner />
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
