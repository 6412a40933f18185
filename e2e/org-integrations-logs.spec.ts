import type { APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD } from '../domain/constants';
import { startTestReceiver, type TestReceiver } from '../server/delivery/test-receiver';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// Settings › Integrations: what was posted for the organization, on screen (issue 13). Seeded
// through the API against a local receiver (the platform's private-targets switch on for it): the
// TSR link to a stand-in ServiceNow gets a work note per status change of a booking carrying its
// TSR URL (one accepted, one refused and waiting for its retry); a carrier's SSC subscription gets
// the appointment-changed event of its approved appointment. The admin reads both logs and
// deletes the subscription after confirming. In an organization of the test's own (ownOrg); the
// private-targets switch is platform-wide, so the test runs alone (and switches it off again).

test.use({
  runAlone: true,
  ownOrgSetup: {
    sites: [{ name: 'North Terminal', bays: [{ name: 'N-01', heightClearanceM: 4.5 }, { name: 'N-02', heightClearanceM: 5.5 }] }],
    tenants: ['Coastal Freight Co'],
  },
});

const SYS_ID = '0123456789abcdef0123456789abcdef';

async function tokenFor(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const token = await request.post('/api/auth/token?grant_type=password', { data: { email, password: DEMO_PASSWORD } });
  expect(token.ok(), await token.text()).toBe(true);
  return { authorization: `Bearer ${(await token.json()).access_token}` };
}

async function setPrivateTargets(request: APIRequestContext, on: boolean) {
  const headers = await tokenFor(request, 'super@baywise.test');
  const { config } = await (await request.get('/api/platform/settings', { headers })).json();
  const saved = await request.put('/api/platform/settings', { headers, data: { ...config, allowPrivateWebhookTargets: on } });
  expect(saved.ok(), await saved.text()).toBe(true);
}

test.describe('integrations: delivery logs', () => {
  let receiver: TestReceiver;
  test.beforeAll(async () => {
    receiver = await startTestReceiver();
  });
  // While the test still runs alone: the next tests start with no private targets.
  test.afterEach(async ({ request }) => {
    await setPrivateTargets(request, false);
  });
  test.afterAll(async () => {
    await receiver.close();
  });

  test('an admin reads the TSR link’s work notes and a carrier subscription’s deliveries, and deletes the subscription', async ({ page, request, ownOrg, capture }) => {
    const stamp = Date.now().toString(36).toUpperCase();
    const origin = new URL(receiver.url).origin;
    await setPrivateTargets(request, true);
    const { orgId, headers: admin } = ownOrg;
    const org = (path: string) => `/api/orgs/${orgId}${path}`;
    const move = async (bookingId: string, to: string, reason?: string) => {
      const { version } = await (await request.get(org(`/bookings/${bookingId}`), { headers: admin })).json();
      const moved = await request.post(org(`/bookings/${bookingId}/transitions`), { headers: admin, data: { to, version, ...(reason ? { reason } : {}) } });
      expect(moved.ok(), await moved.text()).toBe(true);
    };

    // The TSR link to the stand-in ServiceNow, and a booking whose TSR URL names a record there.
    const connected = await request.put(org('/tsr-connections'), { headers: admin, data: { system: 'servicenow', baseUrl: origin, username: 'integration', password: 'pw' } });
    expect(connected.ok(), await connected.text()).toBe(true);
    const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const grid = await (await request.post('/api/public/availability', { data: { orgId, date: day, durationMin: 30, vehicleHeightM: 3.5 } })).json();
    const slot = (grid.slots as Array<{ time: string; available: boolean }>).find((s) => s.available)!.time;
    const tsrNumber = `TSR-LOG-${stamp}`;
    const requested = await request.post('/api/public/bookings', {
      data: {
        orgId,
        tsrNumber,
        tsrSystemType: 'servicenow',
        tsrUrl: `${origin}/sc_task.do?sys_id=${SYS_ID}`,
        tenantName: 'Log Haulage',
        contactName: 'Pat Driver',
        tenantEmail: `log-${stamp.toLowerCase()}@haulier.test`,
        bookingType: 'delivery',
        date: grid.date ?? day,
        slot,
        expectedDurationMin: 30,
        vehicleType: 'van',
        vehicleRegistration: `LOG${stamp.slice(-5)}`,
        vehicleHeightM: 3.5,
        driverInductionCompleted: true,
        termsAccepted: true,
      },
    });
    expect(requested.status(), await requested.text()).toBe(201);
    const found = await (await request.get(org(`/bookings?q=${tsrNumber}`), { headers: admin })).json();
    const bookingId = found.items[0].id as string;
    await move(bookingId, 'approved');
    await receiver.waitFor(1);
    // ServiceNow refuses the next note: it waits for its retry.
    receiver.respondWith(500);
    await move(bookingId, 'cancelled', 'Customer cancelled the delivery');
    await receiver.waitFor(2);
    receiver.respondWith(200);

    // A carrier's key with the webhooks scope, its subscription, and an appointment the admin approves.
    const tenants = await (await request.get(org('/tenants?q=Coastal'), { headers: admin })).json();
    const tenant = (tenants.items as Array<{ id: string; name: string }>).find((t) => t.name === 'Coastal Freight Co')!;
    const keyName = `Coastal TMS ${stamp}`;
    const key = await request.post(org('/api-keys'), {
      headers: admin,
      data: { name: keyName, tenantId: tenant.id, scopes: ['availability:read', 'appointments:schedule', 'webhooks'] },
    });
    expect(key.status(), await key.text()).toBe(201);
    const carrier = { authorization: `Bearer ${(await key.json()).secret}` };
    const callbackUrl = `${origin}/ssc/${stamp.toLowerCase()}`;
    const subscribed = await request.post('/api/ssc/webhooks/v1/subscriptions', { headers: carrier, data: { eventTypes: ['appointment-changed'], callbackUrl } });
    expect(subscribed.ok(), await subscribed.text()).toBe(true);
    const sites = (await (await request.get(org('/sites'), { headers: admin })).json()) as { items?: Array<{ id: string; name: string }> } | Array<{ id: string; name: string }>;
    const locationId = (Array.isArray(sites) ? sites : sites.items!).find((s) => s.name === 'North Terminal')!.id;
    const offered = await (await request.post('/api/ssc/appointments/v1/fetch-available-appointments', { headers: carrier, data: { identifiers: { locationId } } })).json();
    const scheduled = await request.post('/api/ssc/appointments/v1/schedule-appointment', {
      headers: carrier,
      data: { identifiers: { primaryReferenceNumber: `SSC-LOG-${stamp}`, locationId }, preferredAppointment: { id: offered.appointments[0].id, loadingType: 'LIVE' } },
    });
    expect(scheduled.status(), await scheduled.text()).toBe(200);
    const appointment = await scheduled.json();
    if (appointment.appointmentStatus === 'PENDING') await move(appointment.appointment.id, 'approved');
    await expect.poll(() => receiver.received.filter((r) => r.path.startsWith(`/ssc/${stamp.toLowerCase()}`)).length).toBeGreaterThan(0);

    // On screen: the carrier's subscription and what was posted to it.
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings?tab=integrations');
    const subscriptions = page.getByRole('region', { name: 'Carrier subscriptions (SSC)' });
    const row = subscriptions.getByRole('row').filter({ hasText: callbackUrl });
    await expect(row).toContainText(keyName);
    await expect(row).toContainText('Coastal Freight Co');
    await expect(row).toContainText('appointment-changed');
    await row.scrollIntoViewIfNeeded();
    await capture('org-integrations-ssc-subscriptions', { fullPage: false });
    await row.getByRole('button', { name: `Deliveries to ${callbackUrl}` }).click();
    const sscLog = page.getByRole('dialog', { name: 'Deliveries to Coastal Freight Co' });
    await expect(sscLog.getByRole('row', { name: /appointment-changed/ }).first().getByText('Delivered')).toBeVisible();
    await expect(sscLog.getByRole('row', { name: /appointment-changed/ }).first().getByText('200', { exact: true })).toBeVisible();
    await capture('org-integrations-ssc-log', { fullPage: false });
    await sscLog.getByRole('button', { name: 'Close' }).click();

    // The TSR link's work notes, latest first: the refused one waiting for its retry, then the accepted one.
    const tsr = page.getByRole('region', { name: 'TSR link' });
    await tsr.getByRole('button', { name: 'Work notes sent to ServiceNow' }).click();
    const tsrLog = page.getByRole('dialog', { name: 'ServiceNow work notes' });
    const notes = tsrLog.getByRole('row').filter({ hasText: tsrNumber });
    await expect(notes).toHaveCount(2);
    await expect(notes.nth(0)).toContainText('Pending');
    await expect(notes.nth(0).getByText('500', { exact: true })).toBeVisible();
    await expect(notes.nth(1)).toContainText('Delivered');
    await expect(notes.nth(1).getByText('200', { exact: true })).toBeVisible();
    await capture('org-integrations-tsr-log', { fullPage: false });
    await tsrLog.getByRole('button', { name: 'Close' }).click();

    // Deleting the subscription asks first; the carrier's system stops receiving events.
    await row.getByRole('button', { name: /^Delete the subscription of Coastal Freight Co/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this subscription?' });
    await expect(confirm).toContainText(callbackUrl);
    await capture('org-integrations-ssc-delete', { fullPage: false });
    await confirm.getByRole('button', { name: 'Delete subscription' }).click();
    await expect(row).toHaveCount(0);
    await expect(subscriptions.getByText('No carrier subscriptions yet.')).toBeVisible();
    await capture('org-integrations-logs');
  });
});
