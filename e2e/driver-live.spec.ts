import type { APIRequestContext, Page } from '@playwright/test';
import { localDateOf, localTimeOf, todayIn } from '../domain/slot-grid';
import { expect, latestMailTo, test } from './fixtures';
import { vehicle } from './gate-test-site';
import { bearer, type OwnOrg, type OwnSite } from './own-org';

// The driver's live page (issue 26): the manage link from the confirmation e-mail becomes the
// driver's page on the day. Checked in at the gate, it shows the place in the dock queue; the
// moment the dockmaster calls the truck it says "Go to bay …" — without a reload, through the
// socket that follows that one booking. A second booking's page, open at the same time, receives
// nothing of it. In an organization of the test's own, at a site open round the clock where it is
// about noon (so a booking due now is today's and inside the check-in window).

const SITE = 'Driver Yard';
test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: SITE, hours: 'all-day', bays: ['D-01', 'D-02', 'D-03'].map((name) => ({ name, heightClearanceM: 4.5 })) }],
  },
});
const PHONE = { width: 390, height: 844 };

type Booked = { id: string; manageUrl: string; tsrNumber: string };

/** A booking by the org admin at the site's next half-hour slot on `bay`, approved; its manage link from the e-mail. */
async function bookDueNow(request: APIRequestContext, org: OwnOrg, site: OwnSite, bay: number): Promise<Booked> {
  const now = new Date();
  const start = new Date(Math.ceil((now.getTime() + 60_000) / 1_800_000) * 1_800_000);
  const date = localDateOf(start, site.timeZone);
  expect(date).toBe(todayIn(site.timeZone, now));
  const body = { ...vehicle(), siteId: site.id, bayId: site.bays[bay]!.id, date, slot: localTimeOf(start, site.timeZone), overrideMinAdvance: true, approve: true };
  const created = await request.post(`/api/orgs/${org.orgId}/bookings`, { headers: org.headers, data: body });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const mail = await latestMailTo(body.tenantEmail);
  const link = mail.match(/https?:\/\/[^\s>]+\/book\/manage\/[A-Za-z0-9_-]+/)?.[0];
  expect(link, 'manage link in the e-mail').toBeTruthy();
  return { id, manageUrl: new URL(link!).pathname, tsrNumber: body.tsrNumber };
}

/** Every text frame the page's sockets receive. */
function recordFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (frame) => frames.push(String(frame.payload))));
  return frames;
}

test('the driver is told to wait with the position, then "Go to bay" live; another booking\'s page hears nothing', async ({ page, browser, request, ownOrg, capture }) => {
  const site = ownOrg.site(SITE);
  const dock = await bearer(request, ownOrg.dockmaster!.email, ownOrg.orgId);
  const gate = (path: string) => `/api/sites/${site.id}/gate${path}`;
  const ahead = await bookDueNow(request, ownOrg, site, 2);
  const driver = await bookDueNow(request, ownOrg, site, 0);
  const other = await bookDueNow(request, ownOrg, site, 1);

  // The driver's phone, before arriving: today's slot, the arrival code and its QR.
  await page.setViewportSize(PHONE);
  const driverFrames = recordFrames(page);
  await page.goto(driver.manageUrl);
  const live = page.getByTestId('driver-live');
  await expect(live).toContainText('Arrive at the gate from');
  await expect(page.getByTestId('arrival-code')).toHaveText(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  await expect(page.getByRole('img', { name: /QR code of arrival code/ })).toBeVisible();
  await capture('driver-live-arriving');

  // The other booking's page, open all along in another tab.
  const otherPage = await browser.newPage({ viewport: PHONE });
  const otherFrames = recordFrames(otherPage);
  await otherPage.goto(other.manageUrl);
  await expect(otherPage.getByTestId('driver-live')).toContainText('Arrive at the gate from');
  const otherBefore = (await otherPage.getByTestId('driver-live').textContent()) ?? '';

  // Another truck checks in first, then the driver's: second in the queue.
  for (const b of [ahead, driver]) {
    const checkedIn = await request.post(gate(`/bookings/${b.id}/check-in`), { headers: dock, data: {} });
    expect(checkedIn.status(), await checkedIn.text()).toBe(200);
  }
  await expect(page.getByTestId('driver-live-title')).toHaveText('Please wait — you will be called (position 2)');
  await expect(page.getByTestId('booking-status')).toHaveText('Checked in');

  // The truck ahead is called: the driver moves up, no reload.
  expect((await request.post(gate(`/bookings/${ahead.id}/start`), { headers: dock, data: {} })).status()).toBe(200);
  await expect(page.getByTestId('driver-live-title')).toHaveText('Please wait — you will be called (position 1)');
  await capture('driver-live-waiting');

  // The dockmaster calls the driver's truck.
  expect((await request.post(gate(`/bookings/${driver.id}/start`), { headers: dock, data: {} })).status()).toBe(200);
  await expect(page.getByTestId('driver-live-title')).toHaveText('Go to bay D-01');
  await expect(page.getByTestId('booking-status')).toHaveText('At the bay');
  await capture('driver-live-called');

  // Nothing of the others reached the driver's socket but bare nudges; nothing at all reached the other page's.
  expect(driverFrames.join('\n')).not.toContain(ahead.id);
  expect(otherFrames.filter((f) => /"type":"(event|queue)"/.test(f))).toEqual([]);
  expect(otherFrames.join('\n')).not.toContain(driver.id);
  await expect(otherPage.getByTestId('driver-live')).toHaveText(otherBefore);
  await expect(otherPage.getByTestId('booking-status')).toHaveText('Approved');
  await otherPage.close();
});
