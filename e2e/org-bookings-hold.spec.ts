import { siteEmergencyHoldMessage } from '../domain/site-emergency';
import { expect, signInAtOrgAdmin, test } from './fixtures';
import { bookDueNow } from './gate-test-site';

// Issue 22 item 6 in the organization's booking workspace: while the booking's site is stopped for
// an emergency, the booking's drawer offers no Check In and says why in the server's own words, as
// the dock screens do; after the resume Check In is offered again. In an organization of the
// test's own (ownOrg) at a site open round the clock, so the booking is due now whatever the hour.

test.use({
  ownOrgSetup: { sites: [{ name: 'Hold Desk Yard', hours: 'all-day', bays: [{ name: 'D1', heightClearanceM: 4.5 }] }] },
});

test('the bookings drawer holds Check In while the site is stopped, with the server’s reason', async ({ page, request, ownOrg, capture }) => {
  const [site] = ownOrg.sites;
  const { headers } = ownOrg;
  const due = await bookDueNow(request, ownOrg, site, { bay: 0 });
  await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\/dashboard/);

  await page.goto(`/org/bookings?booking=${due.id}`);
  const drawer = page.getByRole('dialog', { name: `Booking ${due.tsrNumber}` });
  await expect(drawer.getByRole('button', { name: 'Check In' })).toBeVisible();
  await expect(drawer.getByTestId('emergency-hold')).toHaveCount(0);

  const stop = await request.post(`/api/sites/${site.id}/gate/emergency`, { headers, data: { reason: 'E2E drill: gas leak' } });
  expect(stop.status(), await stop.text()).toBe(200);
  await page.reload();
  const hold = drawer.getByTestId('emergency-hold');
  await expect(hold).toContainText('Check In on hold: emergency stop');
  await expect(hold).toContainText(siteEmergencyHoldMessage(site.name, 'E2E drill: gas leak'));
  await expect(drawer.getByRole('button', { name: 'Check In' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await capture('org-bookings-drawer-emergency-hold');

  // The server refuses it with the same words.
  const detail = (await (await request.get(`/api/orgs/${ownOrg.orgId}/bookings/${due.id}`, { headers })).json()) as { version: number };
  const refused = await request.post(`/api/orgs/${ownOrg.orgId}/bookings/${due.id}/transitions`, { headers, data: { to: 'checked_in', version: detail.version } });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(siteEmergencyHoldMessage(site.name, 'E2E drill: gas leak'));

  const resume = await request.delete(`/api/sites/${site.id}/gate/emergency`, { headers });
  expect(resume.status(), await resume.text()).toBe(200);
  await page.reload();
  await expect(drawer.getByRole('button', { name: 'Check In' })).toBeVisible();
  await expect(drawer.getByTestId('emergency-hold')).toHaveCount(0);
});
