import path from 'node:path';
import { chooseOption, expect, expectNoSeriousA11yViolations, latestMailTo, SCREENSHOT_DIR, signInAtOrgAdmin, test } from './fixtures';

// Settings › Team: an admin invites a dockmaster in the browser; the invitee opens the link from
// the e-mail, sets a password and signs in at the gate with the site, employee ID and password;
// the admin then deactivates them after a confirmation. In an organization of the test's own
// (ownOrg) with a site and its dock staff (the dock master's employee ID is D1001, as in the demo).

test.use({ ownOrgSetup: { withDockStaff: true, sites: [{ name: 'North Terminal', bays: [{ name: 'N-01', heightClearanceM: 4.5 }] }] } });

test('an admin invites a dockmaster, who accepts from the e-mail and signs in at /dockmaster', async ({ page, browser, ownOrg, capture }) => {
  const org = ownOrg.name;
  const stamp = Date.now();
  const email = `dana.${stamp}@staff.test`;
  const employeeId = `GATE-${stamp % 100_000}`;

  await signInAtOrgAdmin(page, org, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\/dashboard/);
  await page.goto('/org/settings?tab=team');
  const members = page.getByRole('table', { name: 'Team members' });
  await expect(members).toContainText(ownOrg.dockmaster!.email);
  await expect(members).toContainText('D1001');

  await page.getByRole('button', { name: 'Invite member' }).click();
  const modal = page.getByRole('dialog', { name: 'Invite member' });
  await modal.getByLabel('Email').fill(email);
  await modal.getByLabel('Full name').fill('Dana Gate');
  await chooseOption(page, 'Role', 'Dockmaster');
  // The demo dockmaster's ID in another case: refused under the field, nothing sent.
  await modal.getByLabel('Employee ID').fill('d1001');
  await modal.getByRole('button', { name: 'Send invitation' }).click();
  await expect(modal.getByText('This employee ID is already used in your organization')).toBeVisible();
  await capture('org-team-invite-modal', { fullPage: false });
  await modal.getByLabel('Employee ID').fill(employeeId);
  await modal.getByRole('button', { name: 'Send invitation' }).click();
  await expect(modal).toBeHidden();
  const invitations = page.getByRole('table', { name: 'Pending invitations' });
  await expect(invitations).toContainText(email);
  await expect(invitations).toContainText(employeeId);
  await expect(page.getByText('Invitation sent')).toBeHidden({ timeout: 10_000 });
  await capture('org-team-section');

  // The invitee, in a browser of their own, follows the link from the e-mail.
  const mail = await latestMailTo(email);
  expect(mail).toContain(`invited you to join ${org} on Baywise as Dockmaster`);
  const link = mail.match(/http:\/\/\S+\/accept-invitation\?token=[\w-]+/)?.[0];
  expect(link, mail).toBeTruthy();
  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(link!);
  await expect(invitee.getByRole('heading', { name: `Join ${org}`, level: 1 })).toBeVisible();
  const facts = invitee.getByRole('table', { name: 'Invitation' });
  await expect(facts).toContainText('Dockmaster');
  await expect(facts).toContainText(employeeId);
  await expect(invitee.getByLabel('Full name')).toHaveValue('Dana Gate');
  await invitee.getByLabel(/^Password/).fill('Gate-keeper-9');
  await invitee.getByLabel(/^Confirm password/).fill('Gate-keeper-8');
  await invitee.getByRole('button', { name: 'Accept and create account' }).click();
  await expect(invitee.getByText('Passwords do not match')).toBeVisible();
  await invitee.getByLabel(/^Confirm password/).fill('Gate-keeper-9');
  await expectNoSeriousA11yViolations(invitee, 'accept invitation');
  await invitee.screenshot({ path: path.join(SCREENSHOT_DIR, 'accept-invitation.png'), fullPage: true });
  await invitee.getByRole('button', { name: 'Accept and create account' }).click();
  await expect(invitee.getByText(`You are now Dockmaster at ${org}.`)).toBeVisible();
  await expectNoSeriousA11yViolations(invitee, 'invitation accepted');
  await invitee.screenshot({ path: path.join(SCREENSHOT_DIR, 'accept-invitation-done.png'), fullPage: true });

  // The link works once.
  await invitee.goto(link!);
  await expect(invitee.getByText('This invitation link is invalid or has expired.')).toBeVisible();

  await invitee.goto('/dockmaster');
  await chooseOption(invitee, 'Site', `North Terminal — ${org}`);
  await invitee.getByLabel('Employee ID').fill(employeeId.toLowerCase());
  await invitee.getByLabel('Password', { exact: true }).fill('Gate-keeper-9');
  await invitee.getByRole('button', { name: 'Access Dock Operations' }).click();
  await expect(invitee).toHaveURL('/dockmaster/dashboard');
  await context.close();

  // The admin's screen follows live: a member now, no longer an invitation.
  await expect(members).toContainText(email);
  await expect(invitations).toHaveCount(0);
  await expect(page.getByText('No pending invitations.')).toBeVisible();

  // Deactivating asks first; the row then says so.
  await page.getByRole('button', { name: 'Deactivate Dana Gate' }).click();
  const confirm = page.getByRole('dialog', { name: 'Deactivate Dana Gate?' });
  await expect(confirm).toContainText(`signed out of ${org} at once`);
  await capture('org-team-deactivate-confirm', { fullPage: false });
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(confirm).toBeHidden();
  await expect(members.getByRole('row', { name: /Dana Gate/ })).toContainText('Deactivated');
  await expect(page.getByRole('button', { name: 'Reactivate Dana Gate' })).toBeVisible();
});
