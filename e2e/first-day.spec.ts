import { expect, signInAtLogin, test } from './fixtures';
import { signInAtDock } from './gate-test-site';

// Issue 22's first-day findings that a person sees, in an organization of each test's own (ownOrg).
//
// Covered: a security officer who signs in at /login is sent to the gate's sign-in and told that
// it is theirs; the sign-in hints list the demo security account; the dock header calls the area
// "Security" for them.

test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: 'First Day Yard', hours: 'all-day', bays: [{ name: 'F-01', heightClearanceM: 4.5 }] }],
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
});
