import { expect, signInAtOrgAdmin, test } from './fixtures';

// A carrier's reschedule of a confirmed appointment waits for the site (issue 24): the carrier
// books through the SSC API, the admin approves, the carrier asks for a new time (PENDING); the
// booking drawer shows the request and the admin accepts it — the booking moves, still approved.

test.use({ ownOrgSetup: { tenants: ['Relay Carriers'] } });

test('the admin sees a carrier’s reschedule request in the drawer and accepts it', async ({ page, ownOrg, capture }) => {
  const request = page.request;
  const org = (path: string) => `/api/orgs/${ownOrg.orgId}${path}`;
  const tenants = await (await request.get(org('/tenants?q=Relay'), { headers: ownOrg.headers })).json();
  const tenantId = (tenants.items as Array<{ id: string }>)[0]!.id;
  const key = await request.post(org('/api-keys'), { headers: ownOrg.headers, data: { name: 'Relay TMS', tenantId, scopes: ['availability:read', 'appointments:schedule', 'appointments:reschedule'] } });
  expect(key.status(), await key.text()).toBe(201);
  const carrier = { authorization: `Bearer ${(await key.json()).secret}` };
  const locationId = ownOrg.sites[0]!.id;
  const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const offered = await (await request.post('/api/ssc/appointments/v1/fetch-available-appointments', { headers: carrier, data: { identifiers: { locationId }, dateRestrictions: { exactDate: day } } })).json();
  const slots = offered.appointments as Array<{ id: string }>;
  expect(slots.length).toBeGreaterThan(2);
  const reference = `RELAY-${Date.now()}`;
  const scheduled = await (await request.post('/api/ssc/appointments/v1/schedule-appointment', { headers: carrier, data: { identifiers: { primaryReferenceNumber: reference, locationId }, preferredAppointment: { id: slots[0]!.id } } })).json();
  const bookingId = scheduled.appointment.id as string;
  const current = await (await request.get(org(`/bookings/${bookingId}`), { headers: ownOrg.headers })).json();
  if (current.status === 'pending') {
    const approved = await request.post(org(`/bookings/${bookingId}/transitions`), { headers: ownOrg.headers, data: { to: 'approved', version: current.version } });
    expect(approved.status(), await approved.text()).toBe(200);
  }
  const moved = await (await request.post('/api/ssc/appointments/v1/reschedule-appointment', { headers: carrier, data: { identifiers: { appointmentId: bookingId }, preferredAppointment: { id: slots.at(-1)!.id }, reasonCode: 'LATE_TRUCK' } })).json();
  expect(moved).toEqual({ status: 'PENDING' });

  await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\/dashboard/);
  await page.goto('/org/bookings');
  await page.getByRole('textbox', { name: 'Search' }).fill(reference);
  await page.getByRole('button', { name: `Open booking ${reference}` }).click();
  const drawer = page.getByRole('dialog');
  const panel = drawer.getByTestId('reschedule-request');
  await expect(panel).toContainText('The carrier asks for a new time');
  await expect(panel).toContainText('Reason: LATE_TRUCK');
  await expect(drawer.getByTestId('booking-status')).toHaveText('Approved');
  await capture('org-bookings-reschedule-request', { fullPage: false });

  await panel.getByRole('button', { name: 'Accept new time' }).click();
  await expect(drawer.getByTestId('reschedule-request')).toHaveCount(0);
  await expect(drawer.getByTestId('booking-status')).toHaveText('Approved');
  const after = await (await request.get(org(`/bookings/${bookingId}`), { headers: ownOrg.headers })).json();
  expect(after.startTime).not.toBe(current.startTime);
  expect(after.rescheduleRequest).toBeNull();
});
