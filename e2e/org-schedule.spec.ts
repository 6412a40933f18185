import type { APIRequestContext, Page } from '@playwright/test';
import { addDays } from '../domain/day-notice';
import type { Schedule } from '../domain/org-schedule';
import { localTimeOf, todayIn, weekdayOf } from '../domain/slot-grid';
import { chooseOption, expect, signInAtLogin, test } from './fixtures';

// /org/schedule: the site's day and week, a booking dragged to another bay and time (and the API
// agrees it moved), and a drag onto a busy place that snaps back with the server's reason. In an
// organization of the test's own (ownOrg) whose North Terminal has three bays a 4.4 m truck fits.

const TZ = 'Australia/Sydney';

test.use({
  ownOrgSetup: {
    sites: [
      {
        name: 'North Terminal',
        bays: [
          { name: 'N-01', heightClearanceM: 3.8 },
          { name: 'N-07', heightClearanceM: 4.5 },
          { name: 'N-08', heightClearanceM: 4.5 },
          { name: 'N-12', heightClearanceM: 5.5 },
        ],
      },
      { name: 'South Terminal', bays: [{ name: 'S-01', heightClearanceM: 3.8 }] },
    ],
  },
});

/** A weekday at least two days ahead at the site (06:00–22:00 hours, past the minimum advance). */
function weekdayAhead(): string {
  let day = addDays(todayIn(TZ, new Date()), 2);
  while (['sat', 'sun'].includes(weekdayOf(day))) day = addDays(day, 1);
  return day;
}

/** A booking through the public portal API; 4.4 m fits only North Terminal's N-07 and up. */
async function publicBooking(request: APIRequestContext, orgId: string, date: string, slot: string, n: number) {
  const response = await request.post('/api/public/bookings', {
    multipart: {
      data: JSON.stringify({
        orgId,
        tsrNumber: `TSR-SCHED-${Date.now()}-${n}`,
        tenantName: `Drag Test Freight ${n}`,
        contactName: 'Dana Drag',
        tenantEmail: `drag${n}@haulier.test`,
        date,
        slot,
        expectedDurationMin: 60,
        vehicleType: 'rigid',
        vehicleRegistration: `DRG${Date.now() % 100000}${n}`,
        vehicleHeightM: 4.4,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; bayName: string; siteName: string; startTime: string };
}

const authHeaders = async (page: Page) => {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('baywise.auth.session') ?? '{}').access_token as string);
  return { authorization: `Bearer ${token}` };
};

/** Drags the booking's block so its start lands at `minutesLater` after its current start, on `bayName`'s lane. */
async function dragBooking(page: Page, bookingId: string, durationMin: number, minutesLater: number, bayName: string) {
  const block = page.locator(`[data-booking-id="${bookingId}"]`);
  const lane = page.getByRole('group', { name: `Bay ${bayName}`, exact: true });
  await lane.scrollIntoViewIfNeeded();
  await block.scrollIntoViewIfNeeded();
  const from = (await block.boundingBox())!;
  const to = (await lane.boundingBox())!;
  const pxPerMinute = from.width / durationMin;
  const grabX = from.x + 6;
  const grabY = from.y + from.height / 2;
  await page.mouse.move(grabX, grabY);
  await page.mouse.down();
  // In steps, as a hand would: the block follows, snapping to the slot interval.
  await page.mouse.move(grabX + 10, grabY + 4, { steps: 3 });
  await page.mouse.move(grabX + minutesLater * pxPerMinute, to.y + to.height / 2, { steps: 12 });
  await page.mouse.up();
}

test.describe('organization schedule', () => {
  test('drags a booking to another bay and time, and a refused move snaps back with the reason', async ({ page, request, ownOrg, capture }) => {
    const { orgId } = ownOrg;
    const day = weekdayAhead();
    const first = await publicBooking(request, orgId, day, '08:00', 1);
    const second = await publicBooking(request, orgId, day, '08:00', 2);
    expect([first.siteName, second.siteName]).toEqual(['North Terminal', 'North Terminal']);

    await signInAtLogin(page, ownOrg.adminEmail);
    await expect(page).toHaveURL('/org/dashboard');
    await chooseOption(page, 'Site', 'North Terminal');
    await page.getByRole('link', { name: 'Schedule' }).first().click();
    await expect(page.getByRole('heading', { name: 'Schedule', level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Schedule of North Terminal' })).toBeVisible();

    await page.goto(`/org/schedule?view=day&date=${day}`);
    const headers = await authHeaders(page);
    const schedule = (await (await request.get(`/api/orgs/${orgId}/schedule?siteId=${(await siteIdOf(request, orgId, headers))}&from=${day}&to=${day}`, { headers })).json()) as Schedule;
    // A bay tall enough, other than the two bookings', free from 09:00 to 10:00 and not blacked out.
    const nineAt = Date.parse(new Date(first.startTime).toISOString()) + 60 * 60_000;
    const isFree = (bayId: string) =>
      !schedule.bookings.some((b) => b.bayId === bayId && Date.parse(b.startTime) < nineAt + 3_600_000 && Date.parse(b.endTime) > nineAt) &&
      !schedule.blackouts.some((b) => (b.bayId === null || b.bayId === bayId) && Date.parse(b.start) < nineAt + 3_600_000 && Date.parse(b.end) > nineAt);
    const target = schedule.bays.find((b) => b.heightClearanceM >= 4.4 && ![first.bayName, second.bayName].includes(b.name) && isFree(b.id));
    expect(target, 'a free tall bay at 09:00').toBeTruthy();

    const firstBlock = page.locator(`[data-booking-id="${first.id}"]`);
    await expect(firstBlock).toHaveAttribute('aria-label', new RegExp(`^Drag Test Freight 1, 08:00–09:00 .*, bay ${first.bayName}, Pending$`));
    await capture('org-schedule-day');

    // 1. Drag the first booking one hour later onto the free bay: the server moves it.
    await dragBooking(page, first.id, 60, 60, target!.name);
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Booking rescheduled' })).toBeVisible();
    await expect(firstBlock).toHaveAttribute('aria-label', new RegExp(`09:00–10:00 .*, bay ${target!.name}, Pending$`));
    const moved = await (await request.get(`/api/orgs/${orgId}/bookings/${first.id}`, { headers })).json();
    expect(moved).toMatchObject({ bayId: target!.id, bayName: target!.name, version: 2 });
    expect(localTimeOf(new Date(moved.startTime), TZ)).toBe('09:00');

    // 2. Drag the second booking onto that same bay and hour: busy, refused, back where it was.
    await dragBooking(page, second.id, 60, 60, target!.name);
    const refusal = page.locator('.mantine-Notification-root').filter({ hasText: 'Booking not moved' });
    await expect(refusal).toContainText('That bay is not free for the whole booking at that time');
    const secondBlock = page.locator(`[data-booking-id="${second.id}"]`);
    await expect(secondBlock).toHaveAttribute('aria-label', new RegExp(`08:00–09:00 .*, bay ${second.bayName}, Pending$`));
    await expect(page.getByRole('group', { name: `Bay ${second.bayName}`, exact: true }).locator(`[data-booking-id="${second.id}"]`)).toBeVisible();
    const unmoved = await (await request.get(`/api/orgs/${orgId}/bookings/${second.id}`, { headers })).json();
    expect(unmoved).toMatchObject({ bayName: second.bayName, version: 1, startTime: second.startTime });

    // 3. The keyboard way: open the booking, move it with the form to an hour its bay is free
    // (the others' bookings may fill some). First let the refusal's toast go.
    await expect(refusal).toHaveCount(0, { timeout: 15_000 });
    const now = (await (await request.get(`/api/orgs/${orgId}/schedule?siteId=${(await siteIdOf(request, orgId, headers))}&from=${day}&to=${day}`, { headers })).json()) as Schedule;
    const eightAt = Date.parse(second.startTime);
    const freeHour = [10, 11, 12, 13, 14, 15, 16].find((hour) => {
      const start = eightAt + (hour - 8) * 3_600_000;
      return !now.bookings.some((b) => b.id !== second.id && b.bayId === unmoved.bayId && Date.parse(b.startTime) < start + 3_600_000 && Date.parse(b.endTime) > start);
    });
    expect(freeHour, `a free hour on ${second.bayName}`).toBeTruthy();
    const freeSlot = `${String(freeHour!).padStart(2, '0')}:00`;
    await secondBlock.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog');
    await expect(drawer).toContainText('Drag Test Freight 2');
    await drawer.getByLabel('Time slot').selectOption(freeSlot);
    await expect(drawer.getByLabel('Time slot')).toHaveValue(freeSlot);
    await drawer.getByRole('button', { name: 'Move booking' }).click();
    await expect(drawer).toBeHidden();
    await expect(secondBlock).toHaveAttribute('aria-label', new RegExp(`${freeSlot}–${String(freeHour! + 1).padStart(2, '0')}:00`));

    // The week around it.
    await page.locator('label').filter({ hasText: /^Week$/ }).click();
    await expect(page.getByRole('radio', { name: 'Week' })).toBeChecked();
    await expect(page).toHaveURL(/view=week/);
    await expect(page.getByRole('region', { name: 'Schedule of North Terminal' })).toBeVisible();
    await expect(firstBlock).toBeVisible();
    // The toasts of the moves would cover the week: they close themselves after 5 s (clicking
    // each close button raced their own timers).
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await capture('org-schedule-week');
  });
});

async function siteIdOf(request: APIRequestContext, orgId: string, headers: Record<string, string>): Promise<string> {
  const sites = (await (await request.get(`/api/orgs/${orgId}/sites`, { headers })).json()) as Array<{ id: string; name: string }>;
  return sites.find((s) => s.name === 'North Terminal')!.id;
}
