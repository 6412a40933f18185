import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { organizationStatusLabel, organizationStatusTone, planLabel, slugify, type OrganizationList } from '../domain/platform-admin';
import { chooseOption, expect, latestMailTo, test } from './fixtures';

// The super-admin dashboard on real data (spec §2, §7, §8) and the organizations screens: search,
// Harbour Foods' page, suspend it with a reason (its admin's next request is refused, the portal
// drops it) and reactivate it. Harbour Foods is shared demo data: it is always reactivated.
// Creating an organization (its first admin gets the invitation e-mail) and the quote-request
// inbox (mark contacted, convert); the organizations made here are suspended at the end, so the
// portal and the sign-in pickers of later suites list the demo's only.
//
// The figures and lists are platform-wide: every test here runs alone. The other specs' own
// organizations (e2e/own-org.ts) are suspended by then but still listed, newest first.

test.use({ runAlone: true });

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function signInAtSuperAdmin(page: Page) {
  await page.goto('/superadmin');
  await page.getByLabel('Administrator Email').fill('super@baywise.test');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
  await expect(page).toHaveURL('/superadmin/dashboard');
}

async function bearerOf(page: Page) {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').access_token as string, STORAGE_KEYS.session);
  return { authorization: `Bearer ${token}` };
}

type Stats = { activeOrganizations: number; activeMemberships: number; revenueUsd: number | null; alerts: number };

async function statsFor(request: APIRequestContext, headers: Record<string, string>, days: 7 | 30): Promise<Stats> {
  const response = await request.get(`/api/platform/stats?days=${days}`, { headers });
  expect(response.status()).toBe(200);
  return response.json();
}

const card = (page: Page, label: string) => page.locator(`[data-stat="${label}"]`);

test.describe('super admin dashboard', () => {
  // Two screens scanned with axe on a machine shared with other suites.
  test.setTimeout(120_000);

  test('shows real figures, toggles 7/30 days, refreshes, and leads to the organizations', async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    await expect(page.getByRole('heading', { name: 'Platform Dashboard', level: 1 })).toBeVisible();
    const headers = await bearerOf(page);

    // The cards hold the server's figures for 30 days (the default).
    const month = await statsFor(page.request, headers, 30);
    expect(month.activeOrganizations).toBeGreaterThanOrEqual(2); // Acme Logistics and Harbour Foods
    expect(month.revenueUsd).not.toBeNull(); // the demo's paid invoices of the last month
    await expect(page.getByRole('radio', { name: '30 days' })).toBeChecked();
    await expect(card(page, 'Active Organizations')).toContainText(String(month.activeOrganizations));
    await expect(card(page, 'Active Memberships')).toContainText(String(month.activeMemberships));
    await expect(card(page, 'Revenue (30 days)')).toContainText(usd.format(month.revenueUsd!));
    await expect(card(page, 'Alerts (24 hours)')).toContainText(String(month.alerts));
    await expect(page.getByTestId('platform-stats')).not.toContainText('Error loading data');

    // The first three organizations, newest first (as the API lists them), with status colour and plan.
    const organizations = page.getByTestId('dashboard-organizations');
    const newest = (await (await page.request.get('/api/platform/organizations?pageSize=3', { headers })).json()) as OrganizationList;
    await expect(organizations.getByRole('listitem')).toHaveCount(newest.items.length);
    for (const org of newest.items) {
      const item = organizations.locator(`[data-organization="${org.name}"]`);
      await expect(item).toContainText(planLabel(org.plan));
      await expect(item.getByTestId('organization-status')).toHaveText(organizationStatusLabel(org.status));
      await expect(item.getByTestId('organization-status')).toHaveAttribute('data-tone', organizationStatusTone(org.status));
    }

    // The five latest audit entries, each with its age.
    const activity = page.getByTestId('recent-activity');
    await expect(activity.getByRole('listitem')).toHaveCount(5);
    await expect(activity.getByRole('listitem').first()).toContainText(/just now|minutes? ago|hours? ago|days? ago/);

    // Shortcuts to the other platform screens.
    const shortcuts = page.getByRole('region', { name: 'Shortcuts' });
    for (const [name, href] of [
      ['Organizations', '/superadmin/organizations'],
      ['Plans & Billing', '/superadmin/plans'],
      ['Usage Analytics', '/superadmin/usage'],
      ['Audit Log', '/superadmin/audit'],
    ] as const) {
      await expect(shortcuts.getByRole('link', { name: new RegExp(`^${name.replace('&', '\\&')}`) })).toHaveAttribute('href', href);
    }
    await expect(page.getByRole('link', { name: 'Add New Organization' })).toHaveAttribute('href', '/superadmin/organizations?new=1');
    await capture('superadmin-dashboard-real');

    // Seven days: the revenue of the last week only.
    await page.getByText('7 days', { exact: true }).click();
    await expect(page).toHaveURL('/superadmin/dashboard?days=7');
    const week = await statsFor(page.request, headers, 7);
    await expect(card(page, 'Revenue (7 days)')).toContainText(week.revenueUsd === null ? '—' : usd.format(week.revenueUsd));
    await page.getByText('30 days', { exact: true }).click();
    await expect(page).toHaveURL('/superadmin/dashboard');
    await expect(card(page, 'Revenue (30 days)')).toBeVisible();

    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.locator('.mantine-Notification-root').getByText('Data refreshed')).toBeVisible();

    // A tablet in portrait: the cards and lists stack without cutting anything.
    await page.setViewportSize({ width: 820, height: 1180 });
    await expect(card(page, 'Alerts (24 hours)')).toBeVisible();
    await capture('superadmin-dashboard-tablet');
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.getByRole('link', { name: 'View All Organizations' }).click();
    await expect(page).toHaveURL('/superadmin/organizations');
    await expect(page.getByRole('heading', { name: 'Organizations', level: 1 })).toBeVisible();
  });

  test("says what failed, or that there is nothing yet, in the spec's words", async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    await expect(card(page, 'Active Organizations')).not.toContainText('Error loading data');

    // The server fails: every card says so, and each list names what could not be loaded.
    const failure = { status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' } }) };
    await page.route('**/api/platform/stats?**', (route) => route.fulfill(failure));
    await page.route('**/api/platform/organizations?**', (route) => route.fulfill(failure));
    await page.route('**/api/platform/recent-activity?**', (route) => route.fulfill(failure));
    await page.reload();
    await expect(page.getByText('Failed to fetch platform statistics')).toBeVisible();
    await expect(page.getByTestId('platform-stats').getByText('Error loading data')).toHaveCount(4);
    await expect(page.getByText('Error loading organizations: Something went wrong on our side. Please try again.')).toBeVisible();
    await expect(page.getByText('Failed to fetch audit log')).toBeVisible();
    await capture('superadmin-dashboard-errors');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.locator('.mantine-Notification-root').getByText('Failed to fetch platform statistics')).toBeVisible();

    // Nothing yet: a dash for no revenue, and the empty texts.
    await page.unrouteAll();
    await page.route('**/api/platform/stats?**', (route) =>
      route.fulfill({ json: { days: 30, activeOrganizations: 0, activeMemberships: 0, revenueUsd: null, alerts: 0, generatedAt: new Date().toISOString() } }),
    );
    await page.route('**/api/platform/organizations?**', (route) => route.fulfill({ json: { total: 0, items: [] } }));
    await page.route('**/api/platform/recent-activity?**', (route) => route.fulfill({ json: { items: [] } }));
    await page.reload();
    await expect(card(page, 'Revenue (30 days)')).toContainText('—');
    await expect(page.getByText('No organizations found')).toBeVisible();
    await expect(page.getByText('No recent activity')).toBeVisible();
  });
});

test.describe('organizations', () => {
  // Screens scanned with axe on a machine shared with other suites.
  test.setTimeout(120_000);

  test('lists them newest first, searches, and opens Harbour Foods with its members, sites, plan and audit trail', async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    // The active ones: the demo's two (the other specs' own organizations are suspended).
    await page.goto('/superadmin/organizations?status=active');
    const table = page.getByRole('table', { name: 'Organizations' });
    await expect(table).toContainText('Acme Logistics');
    const harbourRow = table.locator('[data-organization="Harbour Foods"]');
    await expect(harbourRow).toContainText('Starter');
    await expect(harbourRow.locator('[data-field="activeSites"]')).toHaveText('1');
    await expect(harbourRow.locator('[data-field="activeBays"]')).toHaveText('4');
    await capture('superadmin-organizations');

    await page.getByRole('textbox', { name: 'Search' }).fill('no such organization');
    await expect(page.getByText('No organizations found')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL('/superadmin/organizations');
    await page.getByRole('textbox', { name: 'Search' }).fill('harb');
    await expect(page).toHaveURL(/q=harb/);
    await expect(table.getByRole('row')).toHaveCount(2); // header + Harbour Foods
    await table.getByRole('link', { name: 'Harbour Foods' }).click();

    await expect(page.getByRole('heading', { name: 'Harbour Foods', level: 1 })).toBeVisible();
    for (const heading of ['Usage', 'Members', 'Sites and bays', 'Plan and invoices', 'Audit trail']) {
      await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
    }
    await expect(page.getByTestId('organization-members')).toContainText('admin@harbour.test');
    await expect(page.getByTestId('organization-sites')).toContainText('Harbour DC');
    await expect(page.getByTestId('organization-plan')).toContainText('Starter');
    await expect(page.getByTestId('organization-invoices')).toContainText('paid');
    await expect(page.getByTestId('organization-audit')).toContainText('Organization created');
    await capture('superadmin-organization');
  });

  test("suspending Harbour Foods ends its admin's session and closes its portal; reactivating restores both", async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    const headers = await bearerOf(page);
    const list = await page.request.get('/api/platform/organizations?q=Harbour%20Foods', { headers });
    const orgId = ((await list.json()) as { items: Array<{ id: string; name: string }> }).items.find((o) => o.name === 'Harbour Foods')!.id;
    await page.goto(`/superadmin/organizations/${orgId}`);
    await expect(page.getByRole('heading', { name: 'Harbour Foods', level: 1 })).toBeVisible();

    // Harbour's admin is signed in elsewhere.
    const adminSignIn = () =>
      page.request.post('/api/auth/token?grant_type=password', { data: { email: 'admin@harbour.test', password: DEMO_PASSWORD, orgId } });
    const adminSession = await adminSignIn();
    expect(adminSession.status()).toBe(200);
    const adminHeaders = { authorization: `Bearer ${(await adminSession.json()).access_token}` };
    expect((await page.request.get('/api/auth/user', { headers: adminHeaders })).status()).toBe(200);

    try {
      await page.getByRole('button', { name: 'Suspend organization' }).click();
      const dialog = page.getByRole('dialog', { name: 'Suspend Harbour Foods?' });
      await expect(dialog).toContainText('its booking portal refuses new requests');
      await dialog.getByRole('button', { name: 'Suspend organization' }).click();
      await expect(dialog.getByText('A reason is required to suspend an organization')).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('E2E check: invoices overdue');
      await capture('superadmin-suspend-dialog', { fullPage: false });
      await dialog.getByRole('button', { name: 'Suspend organization' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.locator('.mantine-Notification-root').getByText('Organization suspended')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 }).locator('..').getByTestId('organization-status')).toHaveText('Suspended');
      await expect(page.getByTestId('suspension')).toContainText('E2E check: invoices overdue');
      await expect(page.getByTestId('suspension')).toContainText('super@baywise.test');
      await expect(page.getByRole('button', { name: 'Reactivate organization' })).toBeVisible();
      await expect(page.getByTestId('organization-audit')).toContainText('Organization suspended');
      await capture('superadmin-organization-suspended');

      // Its admin's next request is refused, and so is a new sign-in; the portal no longer lists it.
      expect((await page.request.get('/api/auth/user', { headers: adminHeaders })).status()).toBe(401);
      const refused = await adminSignIn();
      expect(refused.status()).toBe(403);
      expect((await refused.json()).error.message).toMatch(/^Harbour Foods is suspended: E2E check: invoices overdue\. To restore access, contact /);
      const listed = (await (await page.request.get('/api/public/organizations')).json()) as Array<{ name: string }>;
      expect(listed.map((o) => o.name)).not.toContain('Harbour Foods');

      await page.getByRole('button', { name: 'Reactivate organization' }).click();
      const reactivate = page.getByRole('dialog', { name: 'Reactivate Harbour Foods?' });
      await reactivate.getByRole('button', { name: 'Reactivate organization' }).click();
      await expect(reactivate).toBeHidden();
      await expect(page.locator('.mantine-Notification-root').getByText('Organization reactivated')).toBeVisible();
      await expect(page.getByTestId('suspension')).toBeHidden();
      await expect(page.getByRole('button', { name: 'Suspend organization' })).toBeVisible();
    } finally {
      // Shared demo state: Harbour Foods is active again whatever happened above.
      const now = await page.request.get(`/api/platform/organizations/${orgId}`, { headers });
      if ((await now.json()).status === 'suspended') {
        await page.request.post(`/api/platform/organizations/${orgId}/reactivate`, { headers });
      }
    }

    expect((await adminSignIn()).status()).toBe(200);
    const listed = (await (await page.request.get('/api/public/organizations')).json()) as Array<{ name: string }>;
    expect(listed.map((o) => o.name)).toContain('Harbour Foods');

    // Back on the list, the status is active again.
    await page.getByRole('link', { name: 'All organizations' }).click();
    await page.getByRole('textbox', { name: 'Search' }).fill('Harbour Foods');
    await expect(page.getByRole('table', { name: 'Organizations' }).locator('[data-organization="Harbour Foods"]').getByTestId('organization-status')).toHaveText('Active');
  });
});

async function suspendForCleanup(page: Page, headers: Record<string, string>, orgId: string | null) {
  if (!orgId) return;
  await page.request.post(`/api/platform/organizations/${orgId}/suspend`, { headers, data: { reason: 'E2E clean-up: made by the superadmin suite' } });
}

const orgIdOf = (url: string) => /\/superadmin\/organizations\/([0-9a-f-]{36})$/.exec(url)?.[1] ?? null;

test.describe('creating organizations and the quote-request inbox', () => {
  // Screens scanned with axe on a machine shared with other suites.
  test.setTimeout(120_000);

  test('creates an organization with its plan and first admin, who gets the invitation e-mail', async ({ page, capture }) => {
    const suffix = Date.now().toString(36);
    const name = `E2E Fréight ${suffix}`;
    const adminEmail = `first-admin-${suffix}@e2e.test`;
    await signInAtSuperAdmin(page);
    const headers = await bearerOf(page);
    let orgId: string | null = null;
    try {
      // The dashboard's Add New Organization opens the form.
      await page.getByRole('link', { name: 'Add New Organization' }).click();
      await expect(page).toHaveURL('/superadmin/organizations?new=1');
      const dialog = page.getByRole('dialog', { name: 'New organization' });
      await expect(dialog.getByLabel('Organization name')).toBeVisible();

      // The form checks what the server checks, with its messages.
      await dialog.getByRole('button', { name: 'Create organization' }).click();
      await expect(dialog.getByText('Organization name is required')).toBeVisible();
      await expect(dialog.getByText('First admin name is required')).toBeVisible();
      await expect(dialog.getByText('First admin email is required')).toBeVisible();

      // The slug follows the name.
      await dialog.getByLabel('Organization name').fill(name);
      await expect(dialog.getByLabel('Slug')).toHaveValue(slugify(name));
      await dialog.getByLabel('Contact email').fill(`ops-${suffix}@e2e.test`);
      await chooseOption(page, 'Plan', 'Starter — $99.00/month');
      await dialog.getByLabel('Admin name').fill('Fiona First');
      await dialog.getByLabel('Admin email').fill(adminEmail);
      await capture('superadmin-create-organization', { fullPage: false });
      await dialog.getByRole('button', { name: 'Create organization' }).click();

      // Its page: active, on Starter, its admin invited.
      await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
      orgId = orgIdOf(page.url());
      expect(orgId).not.toBeNull();
      await expect(page.locator('.mantine-Notification-root').getByText('Organization created')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 }).locator('..').getByTestId('organization-status')).toHaveText('Active');
      await expect(page.getByTestId('organization-plan')).toContainText('Starter');
      await expect(page.getByTestId('organization-audit')).toContainText('Organization created');
      const mail = await latestMailTo(adminEmail);
      expect(mail).toContain(`invited you to join ${name} on Baywise as Organization admin`);
      expect(mail).toMatch(/accept-invitation\?token=/);
      await capture('superadmin-organization-created');

      // A slug in use is refused under the field, and nothing is made.
      await page.goto('/superadmin/organizations?new=1');
      const again = page.getByRole('dialog', { name: 'New organization' });
      await again.getByLabel('Organization name').fill(name);
      await again.getByLabel('Admin name').fill('Someone Else');
      await again.getByLabel('Admin email').fill(`other-${suffix}@e2e.test`);
      await again.getByRole('button', { name: 'Create organization' }).click();
      await expect(again.getByText('This slug is already used by another organization')).toBeVisible();
      await again.getByRole('button', { name: 'Cancel' }).click();
      await expect(again).toBeHidden();
      await expect(page).toHaveURL('/superadmin/organizations');
      const listed = (await (await page.request.get(`/api/platform/organizations?q=${encodeURIComponent(slugify(name))}`, { headers })).json()) as { total: number };
      expect(listed.total).toBe(1);
    } finally {
      await suspendForCleanup(page, headers, orgId);
    }
  });

  test('marks a quote request contacted and converts another into an organization', async ({ page, capture }) => {
    const suffix = Date.now().toString(36);
    const contacted = `Contacted Carriers ${suffix}`;
    const converted = `Converted Cartage ${suffix}`;
    for (const [company, person] of [
      [contacted, 'Cora Contact'],
      [converted, 'Vic Convert'],
    ]) {
      const sent = await page.request.post('/api/public/quote-requests', {
        data: { name: person, company, email: `${slugify(person)}-${suffix}@e2e.test`, sites: 2, message: 'Two warehouses, about 30 bays.' },
      });
      expect(sent.status()).toBe(201);
    }
    await signInAtSuperAdmin(page);
    const headers = await bearerOf(page);
    let orgId: string | null = null;
    try {
      // The dashboard points at the new requests.
      await expect(page.getByTestId('dashboard-new-quotes')).toContainText(/\d+ new quote requests?/);
      await page.getByTestId('dashboard-new-quotes').click();
      await expect(page).toHaveURL('/superadmin/organizations?tab=quotes&qstatus=new');
      await expect(page.getByRole('tab', { name: /Quote requests/ })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('new-quotes-badge')).toBeVisible();
      const table = page.getByRole('table', { name: 'Quote requests' });
      const contactedRow = table.locator(`[data-quote="${contacted}"]`);
      await expect(contactedRow.getByTestId('quote-status')).toHaveText('New');
      await capture('superadmin-quote-inbox');

      // Mark one contacted: it leaves the New list, and shows under Contacted with who and when.
      await contactedRow.getByRole('button', { name: `Mark ${contacted} as contacted` }).click();
      await expect(page.locator('.mantine-Notification-root').getByText('Marked as contacted', { exact: true })).toBeVisible();
      await expect(contactedRow).toBeHidden();
      await page.getByText(/^Contacted \(\d+\)$/).click();
      await expect(table.locator(`[data-quote="${contacted}"]`).getByTestId('quote-status')).toHaveText('Contacted');
      await expect(table.locator(`[data-quote="${contacted}"]`)).toContainText('super@baywise.test');

      // Convert the other: the form starts from the request.
      await page.getByText(/^New \(\d+\)$/).click();
      await table.locator(`[data-quote="${converted}"]`).getByRole('button', { name: `Convert ${converted} into an organization` }).click();
      const dialog = page.getByRole('dialog', { name: 'Convert quote request' });
      await expect(dialog.getByLabel('Organization name')).toHaveValue(converted);
      await expect(dialog.getByLabel('Slug')).toHaveValue(slugify(converted));
      await expect(dialog.getByLabel('Admin name')).toHaveValue('Vic Convert');
      await expect(dialog.getByLabel('Admin email')).toHaveValue(`vic-convert-${suffix}@e2e.test`);
      await expect(dialog).toContainText('Two warehouses, about 30 bays.');
      await capture('superadmin-quote-convert', { fullPage: false });
      await dialog.getByRole('button', { name: 'Create organization and convert' }).click();
      await expect(page.getByRole('heading', { name: converted, level: 1 })).toBeVisible();
      orgId = orgIdOf(page.url());
      expect(await latestMailTo(`vic-convert-${suffix}@e2e.test`)).toContain(`invited you to join ${converted}`);

      // The request is converted, with a link to its organization.
      await page.goto('/superadmin/organizations?tab=quotes&qstatus=converted');
      const row = page.getByRole('table', { name: 'Quote requests' }).locator(`[data-quote="${converted}"]`);
      await expect(row.getByTestId('quote-status')).toHaveText('Converted');
      await expect(row.getByRole('link', { name: converted })).toHaveAttribute('href', `/superadmin/organizations/${orgId}`);
      await expect(row.getByRole('button')).toHaveCount(0);
    } finally {
      await suspendForCleanup(page, headers, orgId);
    }
  });
});
