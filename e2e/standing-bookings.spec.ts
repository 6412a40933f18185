import type { Page } from '@playwright/test';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// Standing bookings (decision 045): an org admin sets up "every Tuesday and Thursday 07:00, 60 min"
// for a tenant, sees its dates booked through the usual rules, the day of a blackout listed as a
// conflict, and cancels the series. In an organization of the test's own (Main Yard, demo hours,
// Australia/Sydney).

const SITE_TIME_ZONE = 'Australia/Sydney';

/** The site's calendar date `days` from today, 'YYYY-MM-DD'. */
function siteDate(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: SITE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
const isoWeekday = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

async function fill(page: Page, label: string, value: string) {
  // A required field's label ends with Mantine's asterisk.
  const escaped = label.replace(/[()]/g, (c) => `\\${c}`);
  await page.getByRole('dialog').getByLabel(new RegExp(`^${escaped}\\s*\\*?$`)).fill(value);
}

test('an admin sets up a Tuesday/Thursday series, sees its dates and a blackout conflict, and cancels it', async ({ page, ownOrg, capture }) => {
  test.setTimeout(150_000);
  const { orgId, headers } = ownOrg;
  const site = ownOrg.site('Main Yard');
  const startsOn = siteDate(1);
  // The first Tuesday or Thursday from the day after tomorrow: closed all morning.
  let blackoutDay = siteDate(2);
  for (let d = 2; ![2, 4].includes(isoWeekday(blackoutDay)); d++) blackoutDay = siteDate(d + 1);
  const blackout = await page.request.post(`/api/orgs/${orgId}/blackouts`, {
    headers,
    data: { siteId: site.id, bayId: null, startDate: blackoutDay, startTime: '06:00', endDate: blackoutDay, endTime: '12:00', reason: 'Stocktake' },
  });
  expect(blackout.ok(), await blackout.text()).toBeTruthy();

  await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\/dashboard/);
  await page.getByRole('link', { name: 'Standing bookings' }).click();
  await expect(page.getByRole('heading', { name: 'Standing bookings', level: 1 })).toBeVisible();
  await expect(page.getByText('No standing bookings yet.', { exact: false })).toBeVisible();
  await capture('standing-bookings-empty', { fullPage: false });

  await page.getByRole('button', { name: 'New standing booking' }).click();
  const dialog = page.getByRole('dialog', { name: 'New standing booking' });
  await expect(dialog).toBeVisible();
  await dialog.getByText('Tue', { exact: true }).click();
  await dialog.getByText('Thu', { exact: true }).click();
  await fill(page, 'Start time', '07:00');
  await fill(page, 'Weeks ahead', '2');
  await fill(page, 'From', startsOn);
  await fill(page, 'TSR Number', 'STD-E2E-1');
  await fill(page, 'Company Name', 'Weekly Freight');
  await fill(page, 'Contact Name', 'Ola Nowak');
  await fill(page, 'Email', 'ola@weekly.example');
  await fill(page, 'Vehicle Registration', 'WK01 STD');
  await fill(page, 'Vehicle Height (m)', '3.2');
  await capture('standing-bookings-form', { fullPage: false });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();

  const list = page.getByRole('table', { name: 'Standing bookings' });
  await expect(list.getByText(`Tue, Thu 07:00, 60 min, from ${startsOn}, open-ended`)).toBeVisible();
  await expect(list.getByText('Active')).toBeVisible();
  const conflicts = page.getByRole('table', { name: 'Dates that could not be booked' });
  await expect(conflicts.getByRole('row').filter({ hasText: blackoutDay })).toBeVisible();
  await capture('standing-bookings-list');

  await list.getByRole('button', { name: 'Open' }).click();
  const detail = page.getByRole('dialog', { name: 'Standing booking STD-E2E-1' });
  const dates = detail.getByRole('table', { name: 'Dates of this standing booking' });
  // The detail names each date with its weekday, as the site's calendar has it ('Tue 1 Dec 2026').
  const [by, bm, bd] = blackoutDay.split('-').map(Number) as [number, number, number];
  const blackoutLabel = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(Date.UTC(by, bm - 1, bd))).replace(',', '');
  await expect(dates.getByRole('row').filter({ hasText: blackoutLabel }).getByText('conflict')).toBeVisible();
  await expect(dates.getByRole('row').filter({ hasText: 'booked' }).first()).toBeVisible();
  await expect(dates.getByRole('link', { name: 'Open booking' }).first()).toBeVisible();
  await capture('standing-bookings-detail', { fullPage: false });

  await detail.getByRole('button', { name: 'Cancel series' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel the whole series?' });
  await confirm.getByLabel('Reason').fill('Contract ended');
  await capture('standing-bookings-cancel', { fullPage: false });
  await confirm.getByRole('button', { name: 'Cancel series' }).click();
  await expect(confirm).toBeHidden();
  await expect(detail.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(dates.getByRole('row').filter({ hasText: 'booked' })).toHaveCount(0);
});
