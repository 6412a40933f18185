// The styles of the Mantine components the app's frame and the booking request form use, in
// Mantine's order, in its cascade layer; every other screen loads the rest with its code
// (full-styles.ts). The form's first visit on a slow phone downloads ~20 KB gz less and matches
// fewer rules (issue 25).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/notifications/styles.layer.css';
import './toasts.css';
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
