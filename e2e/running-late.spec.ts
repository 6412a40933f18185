import type { APIRequestContext } from '@playwright/test';
import { localDateOf, localTimeOf } from '../domain/slot-grid';
import { expect, test } from './fixtures';
import { signInAtDock, vehicle, type GateSite } from './gate-test-site';

// Running late (issue 26 item 5, decision 043) in an organization of the test's own, at a site
// open round the clock in a zone where it is about noon (so the bookings are today's whatever the
// hour). The haulier opens the manage page from the reminder's link (?late=1), reports an ETA that
// misses the slot, and moves to an offered slot; another booking's ETA still fits, and the dock
// dashboard shows it "late, ETA …" on the upcoming arrival.

test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: 'Late Yard', hours: 'all-day', bays: ['L1', 'L2'].map((name) => ({ name, heightClearanceM: 4.5 })) }],
  },
});

const HALF_HOUR = 1_800_000;

/** A request through the public portal's API at `start`: its reference, plate and manage link path. */
async function requestBooking(request: APIRequestContext, orgId: string, site: GateSite, start: Date) {
  const v = vehicle();
  const created = await request.post('/api/public/bookings', {
    multipart: { data: JSON.stringify({ ...v, orgId, date: localDateOf(start, site.timeZone), slot: localTimeOf(start, site.timeZone) }) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { manageUrl } = (await created.json()) as { manageUrl: string };
  return { ...v, managePath: new URL(manageUrl).pathname };
}

test('a late haulier moves to an offered slot; the dock sees a late ETA that still fits', async ({ page, request, ownOrg, capture }) => {
  const site = ownOrg.site('Late Yard');
  const nextSlot = Math.ceil((Date.now() + 60_000) / HALF_HOUR) * HALF_HOUR;
  const tz = site.timeZone;

  // The truck for the next slot will be an hour late: check-in closes 45 minutes after the start.
  const late = await requestBooking(request, ownOrg.orgId, site, new Date(nextSlot));
  const eta = localTimeOf(new Date(nextSlot + 2 * HALF_HOUR), tz);
  await page.goto(`${late.managePath}?late=1`);
  const panel = page.getByTestId('running-late');
  await expect(panel.getByRole('heading', { name: 'Running late?' })).toBeVisible();
  await panel.getByLabel('Expected arrival at the gate').fill(eta);
  await panel.getByRole('button', { name: 'Tell the site' }).click();
  const offers = panel.getByTestId('late-offers');
  await expect(offers).toContainText(`Arriving at ${eta} misses your ${localTimeOf(new Date(nextSlot), tz)} slot`);
  const first = offers.getByRole('button', { name: `Move to ${eta}` });
  await expect(first).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await capture('running-late-offers-phone');
  await first.click();
  const dialog = page.getByRole('dialog', { name: `Move your booking to ${eta}?` });
  await dialog.getByRole('button', { name: `Move to ${eta}` }).click();
  await expect(panel.getByText('Booking moved', { exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Booking details' })).toContainText(eta);
  await capture('running-late-moved-phone');

  // Another truck, due in an hour and a half, reports 20 minutes late: it still fits its slot.
  const fits = await requestBooking(request, ownOrg.orgId, site, new Date(nextSlot + 3 * HALF_HOUR));
  const fitEta = localTimeOf(new Date(nextSlot + 3 * HALF_HOUR + 20 * 60_000), tz);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(fits.managePath);
  await page.getByRole('button', { name: 'Running late?' }).click();
  await page.getByLabel('Expected arrival at the gate').fill(fitEta);
  await page.getByRole('button', { name: 'Tell the site' }).click();
  await expect(page.getByText(`Thanks — the site knows you expect to arrive at ${fitEta}.`)).toBeVisible();

  // The dock dashboard's upcoming arrivals show it.
  await signInAtDock(page, ownOrg.name, site.name, 'D1001');
  const row = page.getByTestId('upcoming-list').getByTestId('gate-booking').filter({ hasText: fits.vehicleRegistration });
  await expect(row.getByTestId('late-eta')).toHaveText(`late, ETA ${fitEta}`);
  // The moved booking is on time for its new slot: no late ETA on it.
  await expect(page.getByTestId('upcoming-list').getByTestId('gate-booking').filter({ hasText: late.vehicleRegistration }).getByTestId('late-eta')).toHaveCount(0);
  await capture('running-late-dock-dashboard');
});
