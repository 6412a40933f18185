import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, expect } from 'vitest';
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

/**
 * Chooses the slot at `time` in the slot grid named `gridName`. The grid's buttons are disabled
 * while it is being asked again (a vehicle height settles 300 ms after it is typed), and a click
 * on a disabled button does nothing: so the click is retried until the slot shows as chosen.
 */
export async function chooseSlotInGrid(user: UserEvent, gridName: string, time: string): Promise<void> {
  const slotButton = () => within(screen.getByRole('group', { name: gridName })).getByRole('button', { name: new RegExp(`^${time}`) });
  await waitFor(async () => {
    expect(slotButton()).toBeEnabled();
    await user.click(slotButton());
    expect(slotButton()).toHaveAttribute('aria-pressed', 'true');
  });
}
