import type { APIRequestContext } from '@playwright/test';
import { addDays, formatDay } from '../domain/day-notice';
import { todayIn, weekdayOf } from '../domain/slot-grid';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// Settings › Sites & hours: the admin gives North Terminal's Mondays a lunch break; the booking in
// the break is listed (kept, with a link to reschedule it), the table shows the new hours, and the
// portal stops offering the break at once. Then a holiday closure is added and shows in the list.
// In an organization of the test's own (ownOrg) whose North Terminal has the demo's hours.

const TZ = 'Australia/Sydney';

/** Next Monday at the site (never today, so the minimum advance cannot hide the lunch slots). */
function nextMonday(): string {
  let day = addDays(todayIn(TZ, new Date()), 1);
  while (weekdayOf(day) !== 'mon') day = addDays(day, 1);
  return day;
}

test.use({
  ownOrgSetup: {
    sites: [
      { name: 'North Terminal', bays: [{ name: 'N-01', heightClearanceM: 3.8 }, { name: 'N-07', heightClearanceM: 4.5 }] },
      { name: 'South Terminal', bays: [{ name: 'S-01', heightClearanceM: 3.8 }] },
    ],
  },
});

/** 4.4 m fits only North Terminal's tall bays. */
const tallVehicle = { durationMin: 30, vehicleHeightM: 4.4 };

async function freeTimes(request: APIRequestContext, orgId: string, date: string): Promise<string[]> {
  const grid = await (await request.post('/api/public/availability', { data: { orgId, date, ...tallVehicle } })).json();
  return (grid.slots as Array<{ time: string; freeBays: number }>).filter((s) => s.freeBays > 0).map((s) => s.time);
}

test.describe('sites and hours', () => {
  test('an admin gives Monday a lunch break and adds a holiday closure', async ({ page, ownOrg, capture }) => {
    const { orgId } = ownOrg;
    const monday = nextMonday();
    const before = await freeTimes(page.request, orgId, monday);
    const lunchSlot = ['12:00', '12:30'].find((t) => before.includes(t));
    expect(lunchSlot, `a free lunch slot on ${monday}: ${before.join(' ')}`).toBeTruthy();
    const tsr = `TSR-LUNCH-${Date.now()}`;
    const booked = await page.request.post('/api/public/bookings', {
      data: {
        orgId,
        tsrNumber: tsr,
        tenantName: 'Lunch Break Freight',
        contactName: 'Lou Lunch',
        tenantEmail: 'lou@lunch.test',
        date: monday,
        slot: lunchSlot,
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: `LNC${Date.now() % 100000}`,
        vehicleHeightM: 4.4,
        driverInductionCompleted: true,
        termsAccepted: true,
      },
    });
    expect(booked.status(), await booked.text()).toBe(201);
    const bookingId = ((await booked.json()) as { id: string }).id;

    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings?tab=sites');
    const sites = page.getByRole('table', { name: 'Sites' });
    const north = sites.getByRole('row').filter({ hasText: 'North Terminal' });
    await expect(north).toContainText('Mon–Fri 06:00-22:00');

    await page.getByRole('button', { name: 'Edit North Terminal' }).click();
    const form = page.getByRole('dialog', { name: 'Edit North Terminal' });
    await form.getByLabel('Monday window 1 closes').fill('12:00');
    await form.getByRole('button', { name: 'Add an opening window on Monday' }).click();
    await expect(form.getByLabel('Monday window 2 opens')).toHaveValue('13:00');
    await form.getByLabel('Monday window 2 closes').fill('22:00');
    await capture('org-sites-edit-hours', { fullPage: false });
    await form.getByRole('button', { name: 'Save site' }).click();

    // The hours are saved; the booking in the break is listed, not moved.
    const asked = page.getByRole('dialog', { name: 'New hours for North Terminal' });
    await expect(asked.getByRole('table', { name: 'Affected bookings' })).toContainText(tsr);
    await asked.getByRole('button', { name: 'Keep them' }).click();
    await expect(asked).toBeHidden();
    const link = page.getByRole('link', { name: tsr });
    await expect(link).toHaveAttribute('href', `/org/bookings?booking=${bookingId}`);
    await expect(north).toContainText('Mon 06:00-12:00, 13:00-22:00');
    await expect(north).toContainText('Tue–Fri 06:00-22:00');
    await capture('org-sites-lunch-break');

    // The portal follows at once: no lunch slots that Monday.
    const after = await freeTimes(page.request, orgId, monday);
    expect(after).not.toContain('12:00');
    expect(after).not.toContain('12:30');
    expect(after).toContain('13:00');

    // A closure 30 days ahead: inside the booking horizon, past the demo bookings.
    const closed = addDays(todayIn(TZ, new Date()), 30);
    expect((await freeTimes(page.request, orgId, closed)).length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Holiday closures of North Terminal' }).click();
    const drawer = page.getByRole('dialog', { name: 'Holiday closures · North Terminal' });
    await drawer.getByLabel('Name').fill('Stocktake');
    await drawer.getByLabel('First day').fill(closed);
    await expect(drawer.getByLabel('Last day')).toHaveValue(closed);
    await drawer.getByRole('button', { name: 'Add closure' }).click();
    await expect(drawer.getByRole('table', { name: 'Holiday closures' })).toContainText('Stocktake');
    await expect(drawer.getByRole('table', { name: 'Holiday closures' })).toContainText(formatDay(closed, true));
    expect(await freeTimes(page.request, orgId, closed)).toEqual([]);
    await capture('org-sites-holiday', { fullPage: false });
  });
});
