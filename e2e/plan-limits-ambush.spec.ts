import type { APIRequestContext, Page } from '@playwright/test';
import { planChangeViolationMessage } from '../domain/billing';
import { DEMO_PASSWORD } from '../domain/constants';
import { monthFullMessage } from '../domain/day-notice';
import { expect, test } from './fixtures';
import { SUPER_ADMIN, stampOf } from './own-org';

// A plan limit never ambushes a haulier (issue 22 item 13), in organizations of the tests' own:
// the portal shows a neutral notice instead of a slot grid once the monthly booking cap is
// reached, and changing an organization to a plan it would be over shows what breaks and asks to
// confirm. Each test makes its own plan (a unique name), so shared plans stay as they are.

async function platformHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const session = await request.post('/api/auth/token?grant_type=password', { data: { email: SUPER_ADMIN, password: DEMO_PASSWORD } });
  expect(session.ok(), await session.text()).toBeTruthy();
  return { authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}` };
}

async function createPlan(request: APIRequestContext, headers: Record<string, string>, name: string, limits: Record<string, number | null>) {
  const created = await request.post('/api/platform/plans', {
    headers,
    data: { name, priceUsd: 19, maxSites: null, maxBays: null, maxMembers: null, maxBookingsPerMonth: null, ...limits },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** 'YYYY-MM-DD' `days` from today (browser and test run on the same machine). */
function dateInDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function signInAtSuperAdmin(page: Page) {
  await page.goto('/superadmin');
  await page.getByLabel('Administrator Email').fill(SUPER_ADMIN);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
  await expect(page).toHaveURL('/superadmin/dashboard');
}

test.describe('plan limits never ambush a haulier', () => {
  test('once the monthly booking cap is reached the portal says so instead of offering slots', async ({ page, request, ownOrg, capture }) => {
    const platform = await platformHeaders(request);
    const planId = await createPlan(request, platform, `Cap One ${stampOf()}`, { maxBookingsPerMonth: 1 });
    const assigned = await request.put(`/api/platform/organizations/${ownOrg.orgId}/plan`, { headers: platform, data: { planId } });
    expect(assigned.status(), await assigned.text()).toBe(200);

    // Below the cap the grid offers slots.
    await page.goto(`/book/request?org=${ownOrg.orgId}`);
    await expect(page.getByRole('heading', { name: 'Request a Dock Slot' })).toBeVisible();
    const dateInput = page.getByRole('textbox', { name: 'Date', exact: true });
    await dateInput.fill(dateInDays(3));
    const grid = page.getByTestId('slot-grid');
    await expect(grid.getByText(/compatible bay\(s\) available/)).toBeVisible();
    await expect(grid.locator('button[data-slot]:not([disabled])').first()).toBeVisible();

    // The month's one booking is made at the desk.
    const booked = await request.post(`/api/orgs/${ownOrg.orgId}/bookings`, {
      headers: ownOrg.headers,
      data: {
        tsrNumber: `TSR-CAP-${stampOf()}`,
        tenantName: 'Desk Freight',
        contactName: 'Dee',
        tenantEmail: 'dee@cap.test',
        date: dateInDays(7),
        slot: '11:00',
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: `CAP${stampOf().slice(-5)}`,
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      },
    });
    expect(booked.status(), await booked.text()).toBe(201);

    // A haulier now sees the neutral notice and no slot grid, whatever the day.
    await page.reload();
    await page.getByRole('textbox', { name: 'Date', exact: true }).fill(dateInDays(4));
    await expect(grid.getByTestId('month-full')).toHaveText(monthFullMessage);
    await expect(grid.locator('button[data-slot]')).toHaveCount(0);
    await expect(grid).not.toContainText(/plan|limit|compatible bay/i);
    await capture('book-request-month-full');
  });

  test('a plan the organization would be over lists what breaks and is changed only when confirmed', async ({ page, request, ownOrg, capture }) => {
    // The default own organization has one site with two bays.
    const platform = await platformHeaders(request);
    const planName = `One Bay ${stampOf()}`;
    await createPlan(request, platform, planName, { maxSites: 1, maxBays: 1 });

    await signInAtSuperAdmin(page);
    await page.goto(`/superadmin/organizations/${ownOrg.orgId}`);
    const card = page.locator('section[aria-labelledby="billing-heading"]');
    await card.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByRole('dialog', { name: `Change ${ownOrg.name}’s plan` });
    await dialog.getByLabel('Plan').selectOption({ label: `${planName} — $19.00 a month` });
    await dialog.getByRole('button', { name: 'Change plan' }).click();

    const violations = dialog.getByTestId('plan-change-violations');
    await expect(violations).toContainText(`${ownOrg.name} would be over ${planName}’s limits`);
    await expect(violations.locator('[data-violation]')).toHaveCount(1);
    await expect(violations.locator('[data-violation="bays"]')).toHaveText(planChangeViolationMessage('bays', planName, 2, 1));
    await capture('superadmin-organization-downgrade-confirm', { fullPage: false });

    // Not changed until confirmed.
    const before = await request.get(`/api/platform/organizations/${ownOrg.orgId}/plan`, { headers: platform });
    expect(((await before.json()) as { plan: unknown }).plan).toBeNull();

    await dialog.getByRole('button', { name: 'Change plan anyway' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId('organization-plan')).toContainText(planName);
    await expect(card.locator('[data-usage="bays"]')).toContainText('2 of 1');
  });
});
