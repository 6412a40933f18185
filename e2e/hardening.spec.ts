import type { Page } from '@playwright/test';
import { expect, signInAtLogin, test } from './fixtures';

// What a newcomer saw on the public surface (issue 6): the site's own calendar and the reason a
// day has nothing, a chosen slot kept or cleared with a word, toasts that cover no control, a
// title per screen, and screens that follow the server's permissions. Read on the demo data; the
// booking is made in an organization of the test's own (ownOrg).

/** Opens the request form for the organization. */
async function openForm(page: Page, orgId: string): Promise<void> {
  await page.goto(`/book/request?org=${orgId}`);
  await expect(page.getByRole('button', { name: 'Submit Booking Request' })).toBeVisible();
}

/** Opens the request form for Acme Logistics (it has two sites, in Sydney). */
async function openAcmeForm(page: Page): Promise<void> {
  const orgs = (await (await page.request.get('/api/public/organizations')).json()) as Array<{ id: string; name: string }>;
  await openForm(page, orgs.find((org) => org.name === 'Acme Logistics')!.id);
}

/** Types the day `daysAhead` days after the first one the date field offers (the site's today). */
async function pickFirstOpenDay(page: Page, daysAhead: number): Promise<void> {
  const input = page.getByRole('textbox', { name: 'Date', exact: true });
  const first = await input.getAttribute('min');
  expect(first).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const day = new Date(Date.parse(`${first}T00:00:00Z`) + daysAhead * 86_400_000).toISOString().slice(0, 10);
  // The height typed just before is debounced: wait for the grid asked with it, or a slot clicked on
  // the grid asked without it would be cleared when the height arrives.
  const height = await page.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).inputValue();
  const asked = page.waitForResponse((response) => {
    if (!response.url().endsWith('/availability') || response.request().method() !== 'POST') return false;
    const body = response.request().postDataJSON() as { date?: string; vehicleHeightM?: number };
    return body.date === day && (height === '' || body.vehicleHeightM === Number(height));
  });
  await input.fill(day);
  await expect(input).toHaveValue(day);
  await asked;
  // The grid shown is that day's, settled: a slot clicked on the previous grid would be cleared.
  await expect(page.getByTestId('slot-grid')).toHaveAttribute('data-date', day);
}

test.describe('public booking form', () => {
  test("offers days from the site's own today and says why a day or a vehicle has nothing", async ({ page, capture }) => {
    await openAcmeForm(page);
    await page.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('3.5');
    await pickFirstOpenDay(page, 2);
    const grid = page.getByTestId('slot-grid');
    await expect(grid.getByText(/compatible bay\(s\) available/)).toBeVisible();
    // Times are labelled with the site and its real zone, not "(UTC)".
    await expect(grid.getByText(/^Times are local to (North|South) Terminal \(Australia\/Sydney\)$/)).toBeVisible();

    // A vehicle no bay can take: the spec's line, then which limit it passes.
    await page.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('6');
    await expect(grid.getByText('No compatible bays for current vehicle specifications')).toBeVisible();
    await expect(grid.getByText('No bay at Acme Logistics can take this vehicle: it is 6 m tall and the highest clearance is 5.5 m.')).toBeVisible();
    await expect(grid.getByText(/compatible bay\(s\) available/)).toHaveCount(0);
    await capture('portal-no-bay-fits');

    // The date field offers the site's days up to the booking horizon (60 days), the ones the
    // server names; a day typed beyond it is answered with the reason instead of slots.
    const grid2 = await (
      await page.request.post('/api/public/availability', {
        data: { orgId: new URL(page.url()).searchParams.get('org'), date: '2026-12-01', durationMin: 30 },
      })
    ).json();
    const dateInput = page.getByRole('textbox', { name: 'Date', exact: true });
    await expect(dateInput).toHaveAttribute('min', grid2.siteToday);
    await expect(dateInput).toHaveAttribute('max', grid2.lastBookableDate);
    await page.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('3.5');
    await dateInput.fill(grid2.lastBookableDate);
    await expect(grid.getByText(/compatible bay\(s\) available/)).toBeVisible();
    const dayAfter = new Date(Date.parse(`${grid2.lastBookableDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await dateInput.fill(dayAfter);
    await expect(grid.getByText(/^Bookings open up to 60 days ahead: choose a date on or before /)).toBeVisible();
  });

  test('keeps the chosen slot while it stays free for the vehicle, and says so when it is cleared', async ({ page }) => {
    await openAcmeForm(page);
    const height = page.getByRole('spinbutton', { name: 'Vehicle Height (m)' });
    await height.fill('3.5');
    await pickFirstOpenDay(page, 3);
    const grid = page.getByTestId('slot-grid');
    await expect(grid.getByText(/compatible bay\(s\) available/)).toBeVisible();
    const slot = grid.locator('button[data-slot]:not([disabled])').nth(6);
    const time = (await slot.getAttribute('data-slot'))!;
    await slot.click();
    await expect(slot).toHaveAttribute('aria-pressed', 'true');

    // A lower vehicle still fits: the slot stays chosen.
    await height.fill('3.2');
    await expect(grid.getByText(/compatible bay\(s\) available/)).toBeVisible();
    await expect(grid.locator(`button[data-slot="${time}"]`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('slot-cleared')).toHaveCount(0);

    // One no bay can take: the slot is cleared, with a word saying so.
    await height.fill('6');
    await expect(page.getByTestId('slot-cleared')).toHaveText(`The ${time} slot is no longer available for this vehicle; choose another time.`);
    await expect(page.getByRole('button', { name: 'Submit Booking Request' })).toBeDisabled();
  });

  test('toasts cover no control, and a stale Validation Error goes when the booking succeeds', async ({ page, ownOrg, capture }) => {
    await openForm(page, ownOrg.orgId);
    await page.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('3.5');
    await pickFirstOpenDay(page, 4);
    await page.getByTestId('slot-grid').locator('button[data-slot]:not([disabled])').nth(8).click();
    await page.getByRole('button', { name: 'Submit Booking Request' }).click();
    const validation = page.locator('.mantine-Notification-root').filter({ hasText: 'Validation Error' });
    await expect(validation).toBeVisible();

    // The toast sits clear of the header and of the submit button.
    const toastBox = (await validation.boundingBox())!;
    for (const control of [page.getByRole('banner'), page.getByRole('button', { name: 'Submit Booking Request' })]) {
      const box = await control.boundingBox();
      if (!box) continue;
      const overlaps =
        toastBox.x < box.x + box.width && box.x < toastBox.x + toastBox.width && toastBox.y < box.y + box.height && box.y < toastBox.y + toastBox.height;
      expect(overlaps).toBe(false);
    }
    await capture('portal-validation-toast', { fullPage: false });

    await page.getByRole('textbox', { name: 'TSR Number', exact: true }).fill(`TSR-TOAST-${Date.now()}`);
    await page.getByRole('textbox', { name: 'Company Name' }).fill('Toast Transport');
    await page.getByRole('textbox', { name: 'Contact Name' }).fill('Tia Toast');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('tia@toast.test');
    await page.getByRole('combobox', { name: 'Vehicle Type' }).selectOption({ label: 'Rigid Truck' });
    await page.getByRole('textbox', { name: 'Vehicle Registration' }).fill(`TST${Date.now() % 100000}`);
    await page.getByRole('checkbox', { name: 'The driver has completed the site induction' }).check();
    await page.getByRole('checkbox', { name: 'I accept the terms and conditions' }).check();
    await page.getByRole('button', { name: 'Submit Booking Request' }).click();
    await expect(page.getByRole('heading', { name: 'Booking Request Submitted!' })).toBeVisible();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Booking Submitted Successfully' })).toBeVisible();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Validation Error' })).toHaveCount(0);
  });
});

test('every public screen has its own tab title', async ({ page }) => {
  for (const [path, title] of [
    ['/', 'Baywise'],
    ['/book', 'Book a Dock Slot · Baywise'],
    ['/book/request', 'Request a Dock Slot · Baywise'],
    ['/book/help', 'Booking Help · Baywise'],
    ['/book/terms', 'Booking Terms · Baywise'],
    ['/login', 'Sign in · Baywise'],
  ] as const) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(path === '/' ? /Baywise/ : title);
  }
});

test.describe('screens follow the server permissions', () => {
  test('a dockmaster sees the operations screens only, and is sent away from Settings', async ({ page, capture }) => {
    await signInAtLogin(page, 'dock@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    const nav = page.getByRole('navigation');
    await expect(nav.getByRole('link', { name: 'Bookings', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Standing bookings' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Bays' })).toHaveCount(0);
    await page.goto('/org/settings');
    await expect(page).toHaveURL('/org/dashboard');
    await page.goto('/org/standing-bookings');
    await expect(page).toHaveURL('/org/dashboard');
    await capture('org-area-dockmaster');
  });

  test('security staff cannot open the organization area: they are sent to the dock sign-in, which asks for their site', async ({ page }) => {
    await signInAtLogin(page, 'security@acme.test');
    await expect(page).toHaveURL('/dockmaster');
    await page.goto('/org/settings');
    await expect(page).toHaveURL('/dockmaster');
  });

  test('a super admin is kept in the platform area instead of an empty organization area', async ({ page }) => {
    await signInAtLogin(page, 'super@baywise.test');
    await expect(page).toHaveURL('/superadmin/dashboard');
    await page.goto('/org/dashboard');
    await expect(page).toHaveURL('/superadmin/dashboard');
  });
});
