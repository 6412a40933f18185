import type { APIRequestContext } from '@playwright/test';
import { STORAGE_KEYS } from '../domain/constants';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// The organization's bays (issue 9): an admin adds a bay in the browser — the form refuses a bad
// clearance and a name the site already has with the API's own messages — and the public booking
// portal offers the new bay at once: a vehicle taller than every bay of the site (4.6 m at most)
// gets slots only once the new 5.5 m bay exists. In an organization of the test's own (ownOrg),
// shaped like the demo's Harbour Foods: one site, Harbour DC, with bays H-01 … H-04.

const TALL_VEHICLE_M = 5.2;

test.use({
  ownOrgSetup: {
    sites: [{ name: 'Harbour DC', bays: [3.8, 4.2, 4.6, 4.0].map((heightClearanceM, i) => ({ name: `H-0${i + 1}`, heightClearanceM })) }],
  },
});

/** A day on which the organization's site takes a 3.5 m vehicle (open, within the horizon). */
async function openDay(request: APIRequestContext, orgId: string): Promise<string> {
  for (let ahead = 2; ahead < 12; ahead++) {
    const day = new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const grid = await (await request.post('/api/public/availability', { data: { orgId, date: day, durationMin: 30, vehicleHeightM: 3.5 } })).json();
    if ((grid.slots as Array<{ available: boolean }>).some((s) => s.available)) return grid.date ?? day;
  }
  throw new Error('the site has no open day in the next 12 days');
}

async function tallVehicleBays(request: APIRequestContext, orgId: string, day: string): Promise<number> {
  const grid = await (await request.post('/api/public/availability', { data: { orgId, date: day, durationMin: 30, vehicleHeightM: TALL_VEHICLE_M } })).json();
  return grid.compatibleBays as number;
}

test.describe('organization bays', () => {
  test('an admin adds a tall bay and the booking portal offers it at once', async ({ page, browser, ownOrg, capture }) => {
    // Two accessibility scans, two screenshots and a second page: about a minute on a busy 2-core machine.
    test.slow();
    const { orgId } = ownOrg;
    const day = await openDay(page.request, orgId);
    expect(await tallVehicleBays(page.request, orgId, day)).toBe(0);

    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/bays');
    await expect(page.getByRole('heading', { name: 'Bays', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Bays' });
    await expect(table.getByRole('row')).toHaveCount(5); // header + H-01…H-04

    await page.getByRole('button', { name: 'Add bay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add bay' });
    await expect(dialog.getByRole('combobox', { name: 'Site' })).toHaveValue(/.+/); // the selected site, Harbour DC
    await dialog.getByRole('textbox', { name: 'Name' }).fill('h-01');
    await dialog.getByRole('textbox', { name: 'Height clearance (m)' }).fill('-1');
    await dialog.getByRole('button', { name: 'Add bay' }).click();
    await expect(dialog.getByText('Height clearance must be greater than 0 m')).toBeVisible();

    await dialog.getByRole('textbox', { name: 'Height clearance (m)' }).fill('5.5');
    await dialog.getByRole('button', { name: 'Add bay' }).click();
    // The server's answer: the site has H-01 already (names are unique in any case).
    await expect(dialog.getByText('A bay with this name already exists at this site')).toBeVisible();
    await capture('org-bays-form', { fullPage: false });

    await dialog.getByRole('textbox', { name: 'Name' }).fill('H-05');
    await dialog.getByRole('checkbox', { name: 'Oversize Load' }).check();
    await dialog.getByRole('button', { name: 'Add bay' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Bay added' })).toContainText('H-05 at Harbour DC');
    const row = page.getByTestId('bay-row-H-05');
    await expect(row).toContainText('5.50');
    await expect(row).toContainText('Oversize Load');
    await expect(row).toContainText('Active');
    // Every badge shows its whole word at a laptop's 1,280 px (the status was clipped to 'A…').
    await page.setViewportSize({ width: 1280, height: 900 });
    const clipped = await row.locator('.mantine-Badge-label').evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
    expect(clipped).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    await expect(table.getByRole('row').last()).toHaveAttribute('data-testid', 'bay-row-H-05');
    await capture('org-bays-list');

    // The portal, as a haulier sees it: a 5.2 m vehicle now has the new bay and its slots.
    expect(await tallVehicleBays(page.request, orgId, day)).toBe(1);
    const haulier = await browser.newPage();
    await haulier.goto(`/book/request?org=${orgId}`);
    await haulier.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill(String(TALL_VEHICLE_M));
    await haulier.getByRole('textbox', { name: 'Date', exact: true }).fill(day);
    const grid = haulier.getByTestId('slot-grid');
    await expect(grid.getByText('1 compatible bay(s) available')).toBeVisible();
    await expect(grid.locator('button[data-slot]:not([disabled])').first()).toBeEnabled();
    await haulier.close();

    // The new bay has no bookings, so it may be deleted again; the portal stops offering it.
    const session = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!) as { access_token: string }, STORAGE_KEYS.session);
    const headers = { authorization: `Bearer ${session.access_token}` };
    const list = (await (await page.request.get(`/api/orgs/${orgId}/bays?pageSize=100`, { headers })).json()) as { items: Array<{ id: string; name: string }> };
    const added = list.items.find((bay) => bay.name === 'H-05')!;
    expect((await page.request.delete(`/api/orgs/${orgId}/bays/${added.id}`, { headers })).status()).toBe(204);
    expect(await tallVehicleBays(page.request, orgId, day)).toBe(0);
  });
});
