import { expect, signInAtLogin, test } from './fixtures';
import { bearer } from './own-org';
import { signInAtDock } from './gate-test-site';

// Issue 22's first-day findings that a person sees, in an organization of each test's own (ownOrg)
// with three sites: one open round the clock in a zone where it is about noon, and two in
// Australia/Sydney (so Sydney is the organization's zone), and its dock staff.
//
// Covered: a security officer who signs in at /login is sent to the gate's sign-in and told it is
// theirs; the sign-in hints list the demo security account; the dock header says "Security" (item
// 9). A new site's time zone is the organization's, not the browser's; the schedule opens on the
// first site (item 12). A suspended organization's admin is told why and whom to contact (item
// 14). The platform's organization page gives one member count (item 15).

test.use({
  // The browser is in New York: nothing here is in its zone.
  timezoneId: 'America/New_York',
  ownOrgSetup: {
    withDockStaff: true,
    sites: [
      { name: 'First Day Yard', hours: 'all-day', bays: [{ name: 'F-01', heightClearanceM: 4.5 }] },
      { name: 'Second Yard', bays: [{ name: 'S-01', heightClearanceM: 4.5 }] },
      { name: 'Third Yard', bays: [{ name: 'T-01', heightClearanceM: 4.5 }] },
    ],
  },
});

test.describe('first day', () => {
  test('security staff are told where to sign in, find their demo account, and see "Security" in the header', async ({ page, ownOrg, capture }) => {
    // /login names the gate's sign-in for security staff before anyone signs in.
    await page.goto('/login');
    await expect(page.getByText('Security staff sign in at the Dock Master Portal')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Use demo account security@acme.test' })).toBeVisible();

    // Signing in there anyway: the gate's sign-in, with the reason.
    await signInAtLogin(page, ownOrg.security!.email);
    await expect(page).toHaveURL('/dockmaster');
    const notice = page.getByRole('status').filter({ hasText: 'Security staff sign in here' });
    await expect(notice).toContainText('choose the site, then sign in with your employee ID and password');
    const hints = page.getByRole('table').filter({ hasText: 'Employee ID' });
    await expect(hints.getByRole('row', { name: /security@acme\.test S1001/ })).toBeVisible();
    await capture('first-day-security-sent-to-gate');

    // The gate's sign-in: the header names the area for who staffs it.
    await signInAtDock(page, ownOrg.name, 'First Day Yard', 'S1001');
    await expect(page.getByRole('link', { name: 'Baywise Security home' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Security navigation' })).toBeVisible();
    await capture('first-day-security-header');
  });

  test('a dock master still sees "Dock Master" in the header', async ({ page, ownOrg }) => {
    await signInAtDock(page, ownOrg.name, 'First Day Yard', 'D1001');
    await expect(page.getByRole('navigation', { name: 'Dock Master navigation' })).toBeVisible();
  });

  test('a new site takes the organization’s time zone; the schedule opens on the first site', async ({ page, ownOrg, capture }) => {
    await signInAtLogin(page, ownOrg.adminEmail);
    await expect(page).toHaveURL('/org/dashboard');
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');

    await page.goto('/org/settings?tab=sites');
    await page.getByRole('button', { name: 'Add site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a site' });
    await expect(dialog.getByRole('textbox', { name: 'Time zone' })).toHaveValue(/^Australia\/Sydney/);
    await capture('first-day-new-site-time-zone');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // "All sites" in the header: the schedule shows the first site instead of asking for one.
    await page.goto('/org/schedule');
    await expect(page.getByRole('region', { name: 'Schedule of First Day Yard' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Site', exact: true })).toHaveValue('First Day Yard');
    await capture('first-day-schedule-first-site');
  });

  test('a suspended organization’s admin is told why and whom to contact; the platform page counts members once', async ({ page, request, ownOrg, capture }) => {
    const platform = await bearer(request, 'super@baywise.test');
    // The platform's page of the organization: one member count, the usage card's.
    await signInAtLogin(page, 'super@baywise.test');
    await expect(page).toHaveURL('/superadmin/dashboard');
    await page.goto(`/superadmin/organizations/${ownOrg.orgId}`);
    await expect(page.locator('[data-stat="Active members"]')).toContainText('3');
    await expect(page.getByTestId('members-count')).toHaveText('3 active of 3');
    await capture('first-day-organization-members');
    await page.getByRole('button', { name: 'Sign out' }).click();

    const suspended = await request.post(`/api/platform/organizations/${ownOrg.orgId}/suspend`, { headers: platform, data: { reason: 'Invoice overdue by 60 days' } });
    expect(suspended.ok(), await suspended.text()).toBeTruthy();
    try {
      await signInAtLogin(page, ownOrg.adminEmail);
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(`${ownOrg.name} is suspended: Invoice overdue by 60 days. To restore access, contact`);
      await expect(page).toHaveURL('/login');
      await capture('first-day-suspended-admin');
    } finally {
      // The fixture suspends it at the end: it must be active by then.
      const back = await request.post(`/api/platform/organizations/${ownOrg.orgId}/reactivate`, { headers: platform });
      expect(back.ok(), await back.text()).toBeTruthy();
    }
  });
});
