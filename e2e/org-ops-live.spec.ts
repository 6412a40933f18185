import type { GateOverview } from '../domain/gate';
import { expect, signInAtOrgAdmin, test } from './fixtures';
import { bookDueNow, bookWalkIn, checkOutOnSite, closeSite, createAllHoursSite, onSiteBookings } from './gate-test-site';

// The organization's live operations view (issue 10, /org/ops/live): every site's board shows the
// gate API's figures, and a change made elsewhere reaches the open page without a reload. In an
// organization of each test's own (ownOrg) with two sites.

const bays = (prefix: string, clearances: number[]) => clearances.map((heightClearanceM, i) => ({ name: `${prefix}-0${i + 1}`, heightClearanceM }));
test.use({
  ownOrgSetup: {
    sites: [
      { name: 'North Terminal', bays: bays('N', [4.5, 4.5, 5.5]) },
      { name: 'South Terminal', bays: bays('S', [3.8, 4.2]) },
    ],
  },
});

test('shows each site’s live board and follows a change without reload', async ({ page, request, ownOrg, capture }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\//);
  await page.goto('/org/ops/live');
  await expect(page.getByRole('heading', { name: 'Live Operations', level: 1 })).toBeVisible();

  // The same admin through the API, from outside the page.
  const admin = ownOrg;
  const { headers } = admin;
  const sites = (await (await request.get(`/api/orgs/${admin.orgId}/sites`, { headers })).json()) as Array<{ id: string; name: string }>;
  const overview = async (siteId: string) => (await (await request.get(`/api/sites/${siteId}/gate/overview`, { headers })).json()) as GateOverview;

  // Both sites, each with the API's counters and a tile per bay with its state in words.
  for (const name of ['North Terminal', 'South Terminal']) {
    const site = sites.find((s) => s.name === name)!;
    const section = page.locator(`section[data-site="${name}"]`);
    await expect(section.getByRole('heading', { name, level: 2 })).toBeVisible();
    await expect(section.getByTestId('bay-board').locator('li')).not.toHaveCount(0);
    const api = await overview(site.id);
    await expect(section.getByTestId('bay-board').locator('li')).toHaveCount(api.bays.length);
    for (const [label, key] of [['Expected today', 'expectedToday'], ['On site', 'onSite'], ['At bay', 'atBay'], ['Late', 'late'], ['Overstay', 'overstay']] as const) {
      await expect(section.locator(`[data-counter="${label}"] [data-field="value"]`)).toHaveText(String(api.counters[key]));
    }
    const first = api.bays[0]!;
    await expect(section.locator(`[data-bay="${first.name}"] [data-field="state"]`)).toHaveText(
      { available: 'Available', occupied: 'Occupied', overstay: 'Overstay', blacked_out: 'Blacked out', stopped: 'Stopped' }[first.state],
    );
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await capture('org-ops-live');

  // Elsewhere (the API, not this page): a walk-in at North Terminal's gate, checked in now.
  const north = sites.find((s) => s.name === 'North Terminal')!;
  const before = await overview(north.id);
  const booking = await bookWalkIn(request, admin, north.id, { tenantName: 'Ops Live Freight' });
  const { tsrNumber } = booking;

  try {
    // The open page follows without a reload: the vehicle is on site, linked to where staff act.
    const section = page.locator('section[data-site="North Terminal"]');
    const row = section.getByTestId('on-site').locator(`[data-booking="${tsrNumber}"]`);
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: tsrNumber })).toHaveAttribute('href', `/org/bookings?booking=${booking.id}`);
    await expect(row).toContainText('Checked in');
    await expect(section.locator('[data-counter="On site"] [data-field="value"]')).toHaveText(String(before.counters.onSite + 1));

    // Called to its bay: the bay's tile turns occupied and names the booking.
    const started = await request.post(`/api/sites/${north.id}/gate/bookings/${booking.id}/start`, { headers, data: {} });
    expect(started.status(), await started.text()).toBe(200);
    const bayName = ((await started.json()) as { booking: { bayName: string } }).booking.bayName;
    const tile = section.locator(`[data-bay="${bayName}"]`);
    await expect(tile.locator('[data-field="state"]')).toHaveText('Occupied');
    await expect(tile).toContainText(tsrNumber);
    await expect(tile).toContainText('Ops Live Freight');
    await expect(section.locator('[data-counter="At bay"] [data-field="value"]')).toHaveText(String(before.counters.atBay + 1));
    await capture('org-ops-live-walk-in');
  } finally {
    // The walk-in leaves the site (called to its bay first if need be), and the page follows.
    await checkOutOnSite(request, admin, north.id, booking.vehicleRegistration);
  }
  expect(await onSiteBookings(request, admin, north.id)).not.toContainEqual(expect.objectContaining({ id: booking.id }));
  await expect(page.locator('section[data-site="North Terminal"]').getByTestId('on-site').locator(`[data-booking="${tsrNumber}"]`)).toHaveCount(0);

  // On a tablet the board wraps; nothing scrolls sideways.
  await page.setViewportSize({ width: 820, height: 1180 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await capture('org-ops-live-tablet');
});

test('lists a site’s arrivals, vehicles on site, overstays and late vehicles, and follows them live', async ({ page, request, ownOrg, capture }) => {
  // A further site, open round the clock (e2e/gate-test-site.ts): the bookings below are due now
  // whatever the hour. Deactivated at the end, which the open page follows too.
  const admin = ownOrg;
  const site = await createAllHoursSite(request, admin, 2);
  try {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\//);
    await page.goto('/org/ops/live');
    const section = page.locator(`section[data-site="${site.name}"]`);
    await expect(section.getByRole('heading', { name: site.name, level: 2 })).toBeVisible();
    // A list's accessible name is its title with the count (the title is shown in capitals).
    const list = (name: string) => section.getByRole('list', { name: new RegExp(`^${name} \\(\\d+\\)$`, 'i') });
    const titled = (testId: string, text: string) => section.getByTestId(testId).getByText(text, { exact: true });
    // Every list is there from the start, an empty one saying so.
    await expect(titled('arrivals', 'Arrivals, next 4 hours (0)')).toBeVisible();
    await expect(titled('arrivals', 'No arrivals in the next 4 hours.')).toBeVisible();
    await expect(titled('on-site', 'On site (0)')).toBeVisible();
    await expect(titled('overstays', 'Overstays (0)')).toBeVisible();
    await expect(titled('overstays', 'No vehicle is past its time.')).toBeVisible();
    await expect(titled('late', 'Late vehicles (0)')).toBeVisible();
    await expect(titled('late', 'No vehicle is late.')).toBeVisible();
    await expect(section.locator('[data-bay]')).toHaveCount(2);

    // Booked elsewhere (the API): the arrival shows up on the open page.
    const due = await bookDueNow(request, admin, site, { bay: 0 });
    const arrival = list('Arrivals, next 4 hours').locator(`[data-booking="${due.tsrNumber}"]`);
    await expect(arrival).toBeVisible();
    await expect(arrival).toContainText('Approved');
    await expect(arrival.getByRole('link', { name: due.tsrNumber })).toHaveAttribute('href', `/org/bookings?booking=${due.id}`);
    await expect(section.locator('[data-counter="Expected today"] [data-field="value"]')).toHaveText('1');
    await capture('org-ops-live-site-arrival');

    // Checked in at the gate: it leaves the arrivals for the vehicles on site.
    const { headers } = admin;
    const gate = `/api/sites/${site.id}/gate/bookings/${due.id}`;
    const checkedIn = await request.post(`${gate}/check-in`, { headers, data: {} });
    expect(checkedIn.status(), await checkedIn.text()).toBe(200);
    const onSite = list('On site').locator(`[data-booking="${due.tsrNumber}"]`);
    await expect(onSite).toContainText('Checked in');
    await expect(arrival).toHaveCount(0);
    await expect(section.locator('[data-counter="On site"] [data-field="value"]')).toHaveText('1');

    // At its bay: the tile turns occupied and names it.
    const started = await request.post(`${gate}/start`, { headers, data: {} });
    expect(started.status(), await started.text()).toBe(200);
    const tile = section.locator(`[data-bay="${site.bays[0]!.name}"]`);
    await expect(tile.locator('[data-field="state"]')).toHaveText('Occupied');
    await expect(tile).toContainText(due.tsrNumber);
    await expect(onSite).toContainText('In progress');
    await expect(section.locator('[data-counter="At bay"] [data-field="value"]')).toHaveText('1');
    await page.setViewportSize({ width: 820, height: 1180 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await capture('org-ops-live-site-tablet');

    // Checked out: gone from the vehicles on site, the bay free again.
    const out = await request.post(`${gate}/check-out`, { headers, data: {} });
    expect(out.status(), await out.text()).toBe(200);
    await expect(onSite).toHaveCount(0);
    await expect(tile.locator('[data-field="state"]')).toHaveText('Available');
    await expect(section.locator('[data-counter="On site"] [data-field="value"]')).toHaveText('0');
  } finally {
    await closeSite(request, admin, site);
  }
  // A deactivated site leaves the live view without a reload.
  await expect(page.locator(`section[data-site="${site.name}"]`)).toHaveCount(0);
  await expect(page.locator('section[data-site="North Terminal"]')).toBeVisible();
});
