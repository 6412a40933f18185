import { STORAGE_KEYS } from '../domain/constants';
import { chooseOption, expect, latestMailTo, signInAtLogin, signInAtOrgAdmin, test } from './fixtures';

test.describe('landing page', () => {
  test('shows the headline, the three badges and blurbs, and takes a quote request', async ({ page, capture }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const badge of ['Multi-Tenant SaaS', 'Real-time Operations', 'TSR Integration']) {
      await expect(page.getByText(badge, { exact: true })).toBeVisible();
    }
    for (const blurb of ['Real-time booking', 'Automated bay assignment', 'Analytics and reporting']) {
      await expect(page.getByRole('heading', { name: blurb })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Book a Dock Slot' }).first()).toHaveAttribute('href', '/book');
    await capture('landing');

    await page.getByRole('button', { name: 'Request a Quote' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request a Quote' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(dialog.getByText('Company is required')).toBeVisible();
    await expect(dialog.getByText('Email is required')).toBeVisible();
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(dialog.getByText('Please enter a valid email address')).toBeVisible();
    await capture('landing-quote-errors', { fullPage: false });

    await dialog.getByLabel('Name').fill('Jordan Lee');
    await dialog.getByLabel('Company').fill('Northwind Freight');
    await dialog.getByLabel('Email').fill('jordan@northwind.test');
    await dialog.getByLabel('Number of sites (optional)').fill('3');
    await dialog.getByLabel('Message (optional)').fill('Three warehouses, about 40 trucks a day.');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByText('Quote Request Sent')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  test('shows the Loading... indicator while a screen loads', async ({ page }) => {
    await page.route(/\/assets\/landing-page-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByText('Loading...')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Request a Quote' })).toBeVisible();
    await expect(page.getByText('Loading...')).toBeHidden();
  });
});

test('an unknown path shows the 404 page and logs the path', async ({ page, consoleErrors, capture }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await capture('not-found');
  expect(consoleErrors.some((m) => m.includes('404 Error: User attempted to access non-existent route:') && m.includes('/no/such/page'))).toBe(true);
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL('/');
});

test.describe('admin sign-in (/login)', () => {
  test('requires both fields, shows the server message on a wrong password', async ({ page, capture }) => {
    await page.goto('/login');
    await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();
    await expect(page.getByText('Demo credentials')).toBeVisible();
    await capture('login');
    await page.getByLabel('Email').fill('admin@acme.test');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');

    await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid login credentials');
    await capture('login-error');
    await expect(page).toHaveURL('/login');
  });

  test('org admin lands on /org/dashboard', async ({ page, capture }) => {
    await signInAtLogin(page, 'admin@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Recent Booking Requests' })).toBeVisible();
    await capture('org-dashboard');
  });

  test('super admin lands on /superadmin/dashboard', async ({ page }) => {
    await signInAtLogin(page, 'super@baywise.test');
    await expect(page).toHaveURL('/superadmin/dashboard');
  });

  test('dockmaster account lands on /org/dashboard', async ({ page }) => {
    await signInAtLogin(page, 'dock@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
  });
});

test.describe('super-admin login (/superadmin)', () => {
  test('shows real platform figures and signs a platform admin in', async ({ page, capture }) => {
    await page.goto('/superadmin');
    await expect(page.getByText('All access attempts are logged and monitored.', { exact: false })).toBeVisible();
    for (const capability of ['Organization Management', 'Billing & Revenue', 'Platform Analytics', 'System Operations']) {
      await expect(page.getByRole('heading', { name: capability })).toBeVisible();
    }
    const stats = page.getByRole('region', { name: 'Platform at a glance' });
    await expect(stats.getByText('Organizations')).toBeVisible();
    // Real numbers, never the spec's sample figures.
    await expect(stats).not.toContainText('1,240');
    await expect(stats).not.toContainText('$24.5K');
    await expect(stats.getByText('Error loading data')).toHaveCount(0);
    await capture('superadmin-login');

    await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
    await expect(page.getByText('Missing Information')).toBeVisible();
    await expect(page.getByText('Please enter both email and password.')).toBeVisible();

    await page.getByLabel('Administrator Email').fill('super@baywise.test');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
    await expect(page.getByText('Login Failed')).toBeVisible();
    await expect(page.getByText('Invalid login credentials')).toBeVisible();

    await page.getByLabel('Password', { exact: true }).fill('Baywise-demo-1');
    await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
    await expect(page).toHaveURL('/superadmin/dashboard');
    await expect(page.getByRole('heading', { name: 'Platform Dashboard' })).toBeVisible();
    await capture('superadmin-dashboard');

    // Already signed in as a platform admin: the login page sends you on.
    await page.goto('/superadmin');
    await expect(page).toHaveURL('/superadmin/dashboard');

    for (const [path, title] of [
      ['/superadmin/organizations', 'Organizations'],
      ['/superadmin/plans', 'Plans & Billing'],
      ['/superadmin/usage', 'Usage Analytics'],
      ['/superadmin/audit', 'Audit Log'],
      ['/superadmin/settings', 'Platform Settings'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    }
  });

  test('refuses an organization admin', async ({ page }) => {
    await page.goto('/superadmin');
    await page.getByLabel('Administrator Email').fill('admin@acme.test');
    await page.getByLabel('Password', { exact: true }).fill('Baywise-demo-1');
    await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
    await expect(page.getByText('This portal is restricted to platform administrators.')).toBeVisible();
    await expect(page).toHaveURL('/superadmin');
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.session)).toBeNull();
  });
});

test.describe('organization admin login (/orgadmin)', () => {
  test('Acme admin signs in, the organization is kept and the site selector follows spec §4', async ({ page, capture }) => {
    const apiCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) apiCalls.push(new URL(r.url()).pathname);
    });
    await page.goto('/orgadmin');
    const submit = page.getByRole('button', { name: 'Access Admin Dashboard' });
    await expect(submit).toBeDisabled();
    // Today's Overview names what the dashboard shows after sign-in, and shows no figures to anyone signed out (issue 21).
    const overview = page.getByRole('region', { name: "Today's Overview" });
    await expect(overview).toContainText("Sign in to see your organization's figures for today on your dashboard.");
    await expect(overview.getByRole('heading', { name: 'Pending Requests' })).toBeVisible();
    expect(await overview.innerText()).not.toMatch(/\d/);
    expect(apiCalls).not.toContain('/api/public/overview');
    await capture('orgadmin-login');

    await page.getByRole('button', { name: 'Admin Guide' }).click();
    await expect(page.getByRole('dialog', { name: 'Organization admin guide' })).toBeVisible();
    await capture('orgadmin-guide', { fullPage: false });
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const forgot = page.getByRole('dialog', { name: 'Reset your password' });
    await forgot.getByLabel('Email').fill('admin@acme.test');
    await forgot.getByRole('button', { name: 'Send reset link' }).click();
    await expect(forgot.getByRole('status')).toBeVisible();
    await capture('orgadmin-forgot-password', { fullPage: false });
    await forgot.getByRole('button', { name: 'Close', exact: true }).click();

    await signInAtOrgAdmin(page, 'Acme Logistics', 'admin@acme.test');
    await expect(page.getByText('Login Successful')).toBeVisible();
    await expect(page.getByText('Welcome to your organization dashboard')).toBeVisible();
    await expect(page).toHaveURL('/org/dashboard');
    const saved = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), STORAGE_KEYS.selectedOrg);
    expect(saved).toMatchObject({ name: 'Acme Logistics' });

    const header = page.getByRole('banner');
    await expect(header.getByLabel('Organization', { exact: true })).toHaveValue('Acme Logistics');
    // Two sites: nothing is chosen for the user.
    await expect(header.getByLabel('Site', { exact: true })).toHaveValue('');
    await chooseOption(page, 'Site', 'North Terminal');
    await expect(header.getByLabel('Site', { exact: true })).toHaveValue('North Terminal');
    const savedSite = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), STORAGE_KEYS.selectedSite);
    expect(savedSite).toMatchObject({ name: 'North Terminal' });

    // The choice survives a reload.
    await page.reload();
    await expect(header.getByLabel('Site', { exact: true })).toHaveValue('North Terminal');
    await capture('org-layout-selected');

    // A signed-in org admin is kept out of the super-admin area: sent to /superadmin (spec §2).
    await page.goto('/superadmin/dashboard');
    await expect(page).toHaveURL('/superadmin');
    await expect(page.getByRole('button', { name: 'Access Super Admin Portal' })).toBeVisible();
    await page.goto('/org/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

    // Signing out returns to the org admin login and forgets the session.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL('/orgadmin');
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.session)).toBeNull();
  });

  test('every organization screen opens inside the layout', async ({ page, capture }) => {
    await signInAtOrgAdmin(page, 'Acme Logistics', 'admin@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    const nav = page.getByRole('navigation', { name: 'Organization navigation' });
    for (const [link, path, title] of [
      ['Schedule', '/org/schedule', 'Schedule'],
      ['Bookings', '/org/bookings', 'Bookings'],
      ['Bays', '/org/bays', 'Bays'],
      ['Blackouts', '/org/blackouts', 'Blackouts'],
      ['Tenants', '/org/tenants', 'Tenants'],
      ['Live Operations', '/org/ops/live', 'Live Operations'],
      ['Plate Scanner', '/org/ops/scan', 'Plate Scanner'],
      ['Reports', '/org/reports', 'Reports'],
      ['Settings', '/org/settings', 'Settings'],
      ['Number Plates', '/org/settings/number-plates', 'Number Plate Recognition'],
      ['Dashboard', '/org/dashboard', 'Dashboard'],
    ] as const) {
      await nav.getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await expect(nav.getByRole('link', { name: link, exact: true })).toHaveAttribute('aria-current', 'page');
    }
    await capture('org-layout-nav');
    for (const [path, title] of [
      ['/org/bookings/new', 'Bookings'],
      ['/orgadmin/dashboard', 'Dashboard'],
      ['/org', 'Dashboard'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await expect(page.getByRole('banner').getByLabel('Organization', { exact: true })).toBeVisible();
    }
  });

  test('Harbour Foods admin: organization and its only site are auto-selected', async ({ page }) => {
    await signInAtOrgAdmin(page, 'Harbour Foods', 'admin@harbour.test');
    await expect(page).toHaveURL('/org/dashboard');
    const header = page.getByRole('banner');
    await expect(header.getByLabel('Organization', { exact: true })).toHaveValue('Harbour Foods');
    await expect(header.getByLabel('Site', { exact: true })).toHaveValue('Harbour DC');
  });

  test('an admin of another organization is refused', async ({ page }) => {
    await signInAtOrgAdmin(page, 'Harbour Foods', 'admin@acme.test');
    await expect(page.getByText('Login Failed')).toBeVisible();
    await expect(page).toHaveURL('/orgadmin');
  });
});

test.describe('dockmaster login (/dockmaster)', () => {
  test('checks the employee ID and password at the chosen site', async ({ page, capture }) => {
    await page.goto('/dockmaster');
    const submit = page.getByRole('button', { name: 'Access Dock Operations' });
    await expect(submit).toBeDisabled();
    await chooseOption(page, 'Site', 'North Terminal — Acme Logistics');
    await expect(submit).toBeEnabled();
    const status = page.getByRole('region', { name: 'Site status — North Terminal' });
    // What anyone at the gate may know, in the site's own zone; no booking or bay figures.
    await expect(status.getByText('Hours today')).toBeVisible();
    await expect(status.getByText(/^\d{2}:\d{2}–\d{2}:\d{2}$|^Closed today$/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Site status — North Terminal (Australia/Sydney)' })).toBeVisible();
    await expect(status.getByText('Bays available')).toHaveCount(0);
    await expect(status.getByText('Error loading data')).toHaveCount(0);
    await capture('dockmaster-login');

    await page.getByLabel('Employee ID').fill('D1001');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await submit.click();
    await expect(page.getByText('Login Failed')).toBeVisible();
    await expect(page).toHaveURL('/dockmaster');

    await page.getByLabel('Password', { exact: true }).fill('Baywise-demo-1');
    await submit.click();
    await expect(page).toHaveURL('/dockmaster/dashboard');
    await expect(page.getByRole('banner').getByText('Site: North Terminal')).toBeVisible();
    await capture('dockmaster-dashboard');
    for (const [path, title] of [
      ['/dockmaster/scan', 'Plate Scanner'],
      ['/dockmaster/queue', 'Gate Queue'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    }
  });
});

test('signed-out visitors are sent to the right login', async ({ page }) => {
  for (const [from, to] of [
    ['/org/dashboard', '/orgadmin'],
    ['/org/bays', '/orgadmin'],
    ['/orgadmin/dashboard', '/orgadmin'],
    ['/superadmin/dashboard', '/superadmin'],
    ['/superadmin/organizations/123', '/superadmin'],
    ['/dockmaster/queue', '/dockmaster'],
  ] as const) {
    await page.goto(from);
    await expect(page).toHaveURL(to);
  }
});

test('public booking pages load inside the public layout', async ({ page }) => {
  for (const path of ['/book', '/book/request', '/book/help', '/book/terms']) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: 'Booking portal' })).toBeVisible();
  }
});

test('sign up, confirm the e-mail, reset the password and sign in with it', async ({ page, capture }) => {
  const email = `newcomer-${Date.now()}@example.test`;
  await page.goto('/signup');
  await page.getByLabel('Full name').fill('Nia Newcomer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Password should be at least 8 characters')).toBeVisible();
  await page.getByLabel(/^Password/).fill('Welcome-aboard-7');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  await capture('signup-done');

  const confirmation = await latestMailTo(email);
  const confirmUrl = confirmation.match(/https?:\/\/\S+\/auth\/confirm\?token=\S+/)?.[0];
  expect(confirmUrl, confirmation).toBeTruthy();
  await page.goto(new URL(confirmUrl!).pathname + new URL(confirmUrl!).search);
  await expect(page.getByRole('status')).toBeVisible();
  await capture('confirm-email');

  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const forgot = page.getByRole('dialog', { name: 'Reset your password' });
  await forgot.getByLabel('Email').fill(email);
  await forgot.getByRole('button', { name: 'Send reset link' }).click();
  await expect(forgot.getByRole('status')).toBeVisible();

  // The reset mail is made by the mail worker after the answer (the same work for any address): wait for it.
  const recovery = await latestMailTo(email, 10_000, /reset-password\?token=/);
  const resetUrl = recovery.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0];
  expect(resetUrl, recovery).toBeTruthy();
  await page.goto(new URL(resetUrl!).pathname + new URL(resetUrl!).search);
  await page.getByLabel(/^New password/).fill('Fresh-start-42');
  await page.getByLabel(/^Confirm new password/).fill('Fresh-start-4');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel(/^Confirm new password/).fill('Fresh-start-42');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toBeVisible();
  await capture('reset-password-done');

  // A user without a role lands on the home page.
  await signInAtLogin(page, email, 'Fresh-start-42');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});

test('the admin sign-in works from the keyboard alone', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').focus();
  await page.keyboard.type('admin@harbour.test');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Baywise-demo-1');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/org/dashboard');
  await expect(page.getByRole('banner').getByLabel('Organization', { exact: true })).toHaveValue('Harbour Foods');
});

test('a session close to expiry is refreshed with a rotated token', async ({ page }) => {
  await signInAtLogin(page, 'admin@acme.test');
  await expect(page).toHaveURL('/org/dashboard');
  const before = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!), STORAGE_KEYS.session);
  // Pretend the access token expires in 30 s: the first session check refreshes it.
  await page.evaluate(
    ([key, session]) => localStorage.setItem(key, JSON.stringify({ ...session, expires_at: Math.floor(Date.now() / 1000) + 30 })),
    [STORAGE_KEYS.session, before] as const,
  );
  const refreshed = page.waitForResponse((r) => r.url().includes('grant_type=refresh_token') && r.status() === 200);
  await page.reload();
  await refreshed;
  await expect
    .poll(async () => (await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!), STORAGE_KEYS.session)).refresh_token)
    .not.toBe(before.refresh_token);
  await expect(page).toHaveURL('/org/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('a revoked refresh token signs the user out locally', async ({ page }) => {
  await signInAtLogin(page, 'admin@acme.test');
  await expect(page).toHaveURL('/org/dashboard');
  const session = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!), STORAGE_KEYS.session);
  await page.evaluate(
    ([key, s]) => localStorage.setItem(key, JSON.stringify({ ...s, refresh_token: 'not-a-real-token', expires_at: Math.floor(Date.now() / 1000) + 30 })),
    [STORAGE_KEYS.session, session] as const,
  );
  await page.reload();
  await expect(page).toHaveURL('/orgadmin');
  expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.session)).toBeNull();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the organization layout puts navigation and selectors behind the menu button', async ({ page, capture }) => {
    await signInAtOrgAdmin(page, 'Harbour Foods', 'admin@harbour.test');
    await expect(page).toHaveURL('/org/dashboard');
    await expect(page.getByTestId('sites-overview')).toBeVisible();
    await expect(page.getByTestId('recent-requests')).toBeVisible();
    // Wide tables scroll inside their own boxes: the page itself never scrolls sideways.
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await pageWidth()).toBe(390);
    await capture('org-dashboard-mobile');
    await page.goto('/org/reports');
    await expect(page.getByRole('heading', { name: 'Booked share of open hours, per bay and day' })).toBeVisible();
    expect(await pageWidth()).toBe(390);
    await page.goto('/org/dashboard');
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const nav = page.getByRole('navigation', { name: 'Organization navigation' });
    await expect(nav.getByLabel('Organization', { exact: true })).toHaveValue('Harbour Foods');
    await capture('org-navigation-mobile', { fullPage: false });
    await nav.getByRole('link', { name: 'Bays', exact: true }).click();
    await expect(page).toHaveURL('/org/bays');
    await expect(page.getByRole('heading', { name: 'Bays', level: 1 })).toBeVisible();
  });

  test('the landing page and sign-in screens fit', async ({ page, capture }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Request a Quote' })).toBeVisible();
    await capture('landing-mobile');
    await page.goto('/orgadmin');
    await expect(page.getByRole('button', { name: 'Access Admin Dashboard' })).toBeVisible();
    await capture('orgadmin-login-mobile');
  });
});
