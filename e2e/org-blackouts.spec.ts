import type { Locator, Page } from '@playwright/test';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// Blackouts: an admin closes the one bay a tall vehicle fits (N-12, 5.5 m) for tomorrow morning,
// and the booking portal stops offering those morning slots for that vehicle. In an organization
// of the test's own (ownOrg) whose North Terminal has the demo's hours and zone.

const SITE_TIME_ZONE = 'Australia/Sydney'; // North Terminal
const HEIGHT = '5.3'; // fits N-12 only

test.use({
  ownOrgSetup: {
    sites: [
      {
        name: 'North Terminal',
        bays: [
          { name: 'N-01', heightClearanceM: 3.8 },
          { name: 'N-02', heightClearanceM: 4.2 },
          { name: 'N-11', heightClearanceM: 4.5 },
          { name: 'N-12', heightClearanceM: 5.5 },
        ],
      },
    ],
  },
});

/** The site's calendar date `days` from today, 'YYYY-MM-DD'. */
function siteDate(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: SITE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Picks an option of a Mantine Select inside `scope` (the page behind a modal has its own selects). */
async function choose(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  await scope.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an admin closes a bay for tomorrow morning and the portal stops offering it', async ({ page, ownOrg, capture }) => {
  test.setTimeout(120_000); // four screens scanned with axe on a machine shared with other suites
  const { orgId } = ownOrg;
  const tomorrow = siteDate(1);
  const slotsFor = async () => {
    const response = await page.request.post('/api/public/availability', { data: { orgId, date: tomorrow, durationMin: 30, vehicleHeightM: Number(HEIGHT) } });
    expect(response.ok()).toBeTruthy();
    return (await response.json()).slots as Array<{ time: string; available: boolean }>;
  };
  const before = await slotsFor();
  const morning = before.filter((s) => s.time < '12:00' && s.available).map((s) => s.time);
  const afternoon = before.filter((s) => s.time >= '12:00' && s.available).map((s) => s.time);
  expect(morning.length, 'N-12 has free morning slots tomorrow').toBeGreaterThan(0);

  await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\/dashboard/);
  await page.goto('/org/blackouts');
  await expect(page.getByRole('heading', { name: 'Blackouts', level: 1 })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Blackouts' }).getByTestId('blackout-row').filter({ hasText: 'N-12' });
  await expect(page.getByText(/\d+ blackouts?$/)).toBeVisible();
  await expect(rows).toHaveCount(0);

  await page.getByRole('button', { name: 'New blackout' }).click();
  const form = page.getByRole('dialog', { name: 'New blackout' });
  await choose(page, form, 'Site', 'North Terminal');
  await choose(page, form, 'Bay', 'N-12');
  await form.getByRole('textbox', { name: 'Start date' }).fill(tomorrow);
  await form.getByLabel('Start time').fill('06:00');
  await form.getByRole('textbox', { name: 'End date' }).fill(tomorrow);
  await form.getByLabel('End time').fill('12:00');
  await form.getByRole('textbox', { name: 'Reason' }).fill('Dock leveller repair');
  await expect(form.getByText('Closes bay N-12 from')).toBeVisible();
  await capture('org-blackouts-form', { fullPage: false });
  await form.getByRole('button', { name: 'Create blackout' }).click();

  // Bookings holding N-12 tomorrow morning would be listed first: the admin would keep them.
  const affected = page.getByRole('dialog', { name: 'Bookings in the way' });
  const created = page.getByText('Blackout created');
  await expect(created.or(affected)).toBeVisible();
  if (await affected.isVisible()) {
    await capture('org-blackouts-affected', { fullPage: false });
    await affected.getByRole('button', { name: 'Keep them' }).click();
  }
  await expect(created).toBeVisible();
  const row = rows;
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('North Terminal, N-12');
  await expect(row).toContainText('06:00–12:00');
  await expect(row).toContainText('Dock leveller repair');

  // The recurring form says what it will do in plain words.
  await page.getByRole('button', { name: 'New blackout' }).click();
  const recurring = page.getByRole('dialog', { name: 'New blackout' });
  await recurring.getByText('Recurring', { exact: true }).click();
  await recurring.getByText('Mon', { exact: true }).click(); // a chip: its label toggles the hidden checkbox
  await expect(recurring.getByRole('checkbox', { name: 'Monday' })).toBeChecked();
  await recurring.getByLabel('Start time').fill('06:00');
  await recurring.getByRole('textbox', { name: 'Duration (minutes)' }).fill('120');
  await expect(recurring.getByTestId('recurrence-summary')).toContainText('Every Monday 06:00–08:00');
  await capture('org-blackouts-recurring-form', { fullPage: false });
  await recurring.getByRole('button', { name: 'Cancel' }).click();
  await capture('org-blackouts-list');

  // The portal: a vehicle only N-12 can take finds tomorrow morning closed, the afternoon open.
  const after = await slotsFor();
  expect(after.filter((s) => s.time < '12:00' && s.available)).toEqual([]);
  await page.goto(`/book/request?org=${orgId}`);
  await page.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill(HEIGHT);
  const date = page.getByRole('textbox', { name: 'Date', exact: true });
  await date.fill(tomorrow);
  await expect(date).toHaveValue(tomorrow);
  const grid = page.getByTestId('slot-grid');
  await expect(grid.getByText('1 compatible bay(s) available')).toBeVisible();
  for (const time of morning) await expect(grid.locator(`button[data-slot="${time}"]`)).toBeDisabled();
  if (afternoon.length > 0) await expect(grid.locator(`button[data-slot="${afternoon.at(-1)}"]`)).toBeEnabled();
  await grid.scrollIntoViewIfNeeded();
  await capture('org-blackouts-portal', { fullPage: false });
});
