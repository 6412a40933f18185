import type { GateBooking, GateMoveResponse, GateOverview } from '../domain/gate';
import { localTimeOf } from '../domain/slot-grid';
import { expect, test } from './fixtures';
import { bookDueNow, signInAtDock } from './gate-test-site';

// Issue 22 item 7 on the dock screen: a dock master extends an overstaying vehicle's time, and the
// screen still shows when it really got to its bay, with the new planned end. In an organization of
// the test's own (ownOrg) at a site open round the clock.
//
// The vehicle is really checked in and started at its bay through the API, so "at bay since" is the
// server's own record. Only the overstay is played: the server marks one 30 minutes after the
// planned end (the sweep) and never takes a booking that starts in the past, so a real one needs an
// hour of waiting. The page's gate overview is the server's, with that booking shown as overstaying
// (Extend Time offered); the extend request is answered as the server answers it (the API tests,
// server/modules/gate/gate-hold.routes.test.ts, check that it keeps the start and the dwell).

test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: 'Extend Yard', hours: 'all-day', bays: [{ name: 'E1', heightClearanceM: 4.5 }] }],
  },
});

test('Extend Time keeps "at bay since" and shows the new planned end', async ({ page, request, ownOrg, capture }) => {
  const [site] = ownOrg.sites;
  const { headers } = ownOrg;
  const due = await bookDueNow(request, ownOrg, site, { bay: 0 });
  const gate = `/api/sites/${site.id}/gate/bookings/${due.id}`;
  const checkedIn = await request.post(`${gate}/check-in`, { headers, data: {} });
  expect(checkedIn.status(), await checkedIn.text()).toBe(200);
  const started = await request.post(`${gate}/start`, { headers, data: {} });
  expect(started.status(), await started.text()).toBe(200);
  const atBay = ((await started.json()) as GateMoveResponse).booking;
  expect(atBay.status).toBe('in_progress');
  const time = (iso: string) => localTimeOf(new Date(iso), site.timeZone);
  const since = time(atBay.startedAt!);
  const newEnd = new Date(Date.parse(atBay.endTime) + 60 * 60_000).toISOString();

  // The overview as the server sends it, the booking shown overstaying until it is extended.
  let extendedTo: string | null = null;
  const shown = (b: GateBooking): GateBooking =>
    b.id !== due.id ? b : extendedTo ? { ...b, endTime: extendedTo } : { ...b, status: 'overstay', actions: ['force_check_out', 'extend'] };
  await page.route(`**/api/sites/${site.id}/gate/overview`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as GateOverview;
    body.live = body.live.map(shown);
    body.bays = body.bays.map((bay) =>
      bay.booking?.id === due.id ? { ...bay, state: extendedTo ? bay.state : 'overstay', booking: shown(bay.booking) } : bay,
    );
    if (!extendedTo) body.counters = { ...body.counters, overstay: 1, atBay: 0 };
    await route.fulfill({ response, json: body });
  });
  let sent: { version: number; endTime: string } | null = null;
  await page.route(`**${gate}/extend`, async (route) => {
    sent = route.request().postDataJSON() as { version: number; endTime: string };
    extendedTo = sent.endTime;
    const reply: GateMoveResponse = { booking: { ...atBay, version: atBay.version + 1, endTime: sent.endTime, actions: ['check_out'] }, unchanged: false, dwellMinutes: null };
    await route.fulfill({ json: reply });
  });

  await signInAtDock(page, ownOrg.name, site.name, 'D1001');
  const row = page.getByTestId('live-list').getByTestId('gate-booking').filter({ hasText: due.vehicleRegistration });
  await expect(row.getByTestId('booking-status')).toHaveText('Overstay');
  await expect(row.getByTestId('at-bay-since')).toHaveText(`At bay since ${since} · planned end ${time(atBay.endTime)}`);
  const tile = page.getByRole('region', { name: 'Bay Status' }).getByLabel('Bay E1: Overstay');
  await expect(tile).toContainText(`since ${since} · until ${time(atBay.endTime)}`);

  await row.getByRole('button', { name: `Extend Time ${due.vehicleRegistration}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Extend Time' });
  await dialog.getByLabel('New end time').fill(time(newEnd));
  await capture('dock-extend-time-dialog');
  await dialog.getByRole('button', { name: 'Extend Time' }).click();
  await expect(dialog).toHaveCount(0);
  expect(sent).toEqual({ version: atBay.version, endTime: newEnd });

  // Back in progress until the new end; the real start at the bay is unchanged.
  await expect(row.getByTestId('booking-status')).toHaveText('In progress');
  await expect(row.getByTestId('at-bay-since')).toHaveText(`At bay since ${since} · planned end ${time(newEnd)}`);
  await expect(row).toContainText(`${time(atBay.startTime)}–${time(newEnd)}`);
  const occupied = page.getByRole('region', { name: 'Bay Status' }).getByLabel('Bay E1: Occupied');
  await expect(occupied).toContainText(`since ${since} · until ${time(newEnd)}`);
  await page.mouse.move(0, 0);
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
  await capture('dock-extend-time-after');
});
