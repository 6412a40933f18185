import { expect, signInAtOrgAdmin, test } from './fixtures';

// Settings › Booking policy › Reminders (decision 042): the admin changes when hauliers are
// reminded; the form refuses the same hours twice; a reload shows what was saved.

test.use({ ownOrgSetup: { sites: [{ name: 'Reminder Yard', bays: [{ name: 'R-01', heightClearanceM: 4.5 }] }] } });

test('an admin changes the reminder hours', async ({ page, ownOrg, capture }) => {
  await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\/dashboard/);
  await page.goto('/org/settings?tab=policy');
  await expect(page.getByRole('heading', { name: 'Reminders', level: 2 })).toBeVisible();
  const first = page.getByRole('textbox', { name: 'Reminder 1 (hours before the start)' });
  const second = page.getByRole('textbox', { name: 'Reminder 2 (hours before the start)' });
  await expect(first).toHaveValue('24');
  await expect(second).toHaveValue('2');

  await page.getByRole('button', { name: 'Add reminder' }).click();
  const third = page.getByRole('textbox', { name: 'Reminder 3 (hours before the start)' });
  await third.fill('24');
  await page.getByRole('button', { name: 'Save reminders' }).click();
  await expect(page.getByText('Each reminder needs a different number of hours')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add reminder' })).toBeDisabled();
  await third.fill('48');
  await page.getByRole('button', { name: 'Remove reminder 2' }).click();
  await page.getByRole('button', { name: 'Save reminders' }).click();
  await expect(page.getByText('Hauliers are reminded before their bookings.')).toBeVisible();
  await page.getByRole('heading', { name: 'Reminders', level: 2 }).scrollIntoViewIfNeeded();
  await capture('org-settings-reminders');

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Reminder 1 (hours before the start)' })).toHaveValue('48');
  await expect(page.getByRole('textbox', { name: 'Reminder 2 (hours before the start)' })).toHaveValue('24');
  await expect(page.getByRole('textbox', { name: 'Reminder 3 (hours before the start)' })).toHaveCount(0);
});
