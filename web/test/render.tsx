import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import { cssVariablesResolver, theme } from '../app/theme';

// A component as the app shows it: the app's Mantine theme (in Mantine's test mode: no
// transitions, no portals, so dialogs and toasts are in the rendered tree at once), the toasts,
// and a query client of the test's own that never retries (a failure shows at once).

export type Rendered = RenderResult & { user: UserEvent; queryClient: QueryClient };

export function renderWithProviders(ui: ReactElement): Rendered {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
  const result = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, user: userEvent.setup(), queryClient };
}

// The toasts live in a module-level store: none carries over to the next test.
afterEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

/** The toast (a Mantine notification, role alert) whose title is `title`, once it shows. */
export function findToast(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const toast = screen.queryAllByRole('alert').find((alert) => within(alert).queryByText(title, { exact: true }));
    if (!toast) throw new Error(`No toast titled "${title}"`);
    return toast;
  });
}
