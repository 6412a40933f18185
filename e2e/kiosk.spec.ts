import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import sharp from 'sharp';
import { arrivalQrText } from '../domain/arrival-code';
import { arrivalCodeFor } from '../server/modules/bookings/arrival-code';
import { E2E_AUTH_SECRET } from './e2e-auth-secret';
import { SCREENSHOT_DIR, expect, expectNoSeriousA11yViolations, test } from './fixtures';
import { bookDueNow, signInAtDock, vehicle } from './gate-test-site';
import { latestMailWithPartsTo } from './mail';
import { stampOf } from './own-org';

// The gate kiosk (issue 26, decision 041): an admin registers a kiosk; on the tablet (opened with
// the setup link) a driver scans the booking's QR code with the camera (Chromium's fake camera
// plays a picture of it), is told to wait with their place in the queue, and the screen says
// "Go to bay …" once the dock master calls the truck, without a reload. An unknown truck registers
// as a walk-in, which shows on the dock's queue. Checked with axe at tablet and phone sizes.

const SITE = 'Kiosk Gate';
test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: SITE, hours: 'all-day', bays: [{ name: 'K-01', heightClearanceM: 4.5 }, { name: 'K-02', heightClearanceM: 4.5 }] }],
  },
});

const stamp = stampOf();

/** A Y4M video (the fake camera's format) of one still picture: the e-mail's QR image on white, centred, as a phone screen held up to the camera. */
async function y4mOfQr(qrPng: Buffer, file: string): Promise<void> {
  const width = 640;
  const height = 480;
  const qr = await sharp(qrPng).resize({ width: 360, height: 360, kernel: 'nearest' }).png().toBuffer();
  const { data } = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([{ input: qr, gravity: 'centre' }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const luma = Buffer.alloc(width * height);
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  for (let i = 0; i < width * height; i++) luma[i] = Math.round(0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from('FRAME\n'), luma, chroma, chroma]));
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Every text frame the page's sockets receive. */
function recordFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (frame) => frames.push(String(frame.payload))));
  return frames;
}

/** The booking's confirmation e-mail: its manage link and the arrival QR image it carries inline. */
async function confirmationOf(tenantEmail: string) {
  const mail = await latestMailWithPartsTo(tenantEmail, /Arrival code/);
  const link = mail.text.match(/https?:\/\/[^\s>]+\/book\/manage\/[A-Za-z0-9_-]+/)?.[0];
  expect(link, 'manage link in the e-mail').toBeTruthy();
  const qr = mail.attachments.find((a) => a.cid === 'arrival-qr@baywise');
  expect(qr?.contentType, 'arrival QR image in the e-mail').toBe('image/png');
  return { managePath: new URL(link!).pathname, qrPng: qr!.content, text: mail.text };
}

test('a driver scans the QR code from the e-mail at the kiosk, waits, and kiosk and phone say "Go to bay" the moment the dock calls the truck', async ({ request, ownOrg }, testInfo) => {
  test.setTimeout(180_000);
  const site = ownOrg.site(SITE);
  const driverVehicle = vehicle({ tsrNumber: `TSR-KIOSK-${stamp}`, vehicleRegistration: `KS${stamp.slice(-5)}`, tenantEmail: `kiosk-${stamp.toLowerCase()}@haulier.test` });
  const booking = await bookDueNow(request, ownOrg, site, driverVehicle);
  const otherVehicle = vehicle({ tsrNumber: `TSR-KIOSK2-${stamp}`, vehicleRegistration: `KO${stamp.slice(-5)}`, tenantEmail: `kiosk2-${stamp.toLowerCase()}@haulier.test` });
  const other = await bookDueNow(request, ownOrg, site, { ...otherVehicle, slotsLater: 1 });
  const mail = await confirmationOf(driverVehicle.tenantEmail);
  const otherMail = await confirmationOf(otherVehicle.tenantEmail);
  const registered = await request.post(`/api/orgs/${ownOrg.orgId}/settings/kiosk-devices`, { headers: ownOrg.headers, data: { siteId: site.id, name: 'Gate house tablet' } });
  expect(registered.status(), await registered.text()).toBe(201);
  const { secret } = (await registered.json()) as { secret: string };

  // The e-mail carries the typed code too, and the server derives it from the booking.
  const code = arrivalCodeFor(new TextEncoder().encode(E2E_AUTH_SECRET), booking.id);
  expect(mail.text).toContain(`Arrival code: ${code.slice(0, 4)}-${code.slice(4)}`);
  expect(arrivalQrText(code)).not.toContain(mail.managePath.split('/').at(-1));
  const video = testInfo.outputPath('arrival-qr.y4m');
  fs.mkdirSync(path.dirname(video), { recursive: true });
  await y4mOfQr(mail.qrPng, video);
  const launch = testInfo.project.use.launchOptions ?? {};
  const browser = await chromium.launch({
    ...launch,
    args: [...(launch.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  });
  try {
    const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 820, height: 1180 } });
    await context.grantPermissions(['camera']);
    const page = await context.newPage();
    // The setup link: the secret is kept, and taken out of the address bar.
    await page.goto(`/kiosk#token=${secret}`);
    await expect(heading(page)).toHaveText('Welcome — check in here');
    expect(new URL(page.url()).hash).toBe('');
    await expect(page.getByText(ownOrg.name)).toBeVisible();
    await expect(page.getByText(SITE)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'kiosk start, tablet');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'kiosk-start-tablet.png'), fullPage: true });
    const scan = page.getByRole('button', { name: 'Scan your QR code' });
    expect((await scan.boundingBox())!.height).toBeGreaterThanOrEqual(64);

    // The driver's phone (the manage link from the same e-mail) and another haulier's, both open.
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(mail.managePath);
    await expect(phone.getByTestId('driver-live')).toContainText('Arrive at the gate from');
    const otherPhone = await context.newPage();
    await otherPhone.setViewportSize({ width: 390, height: 844 });
    const otherFrames = recordFrames(otherPhone);
    await otherPhone.goto(otherMail.managePath);
    await expect(otherPhone.getByTestId('driver-live')).toContainText('Arrive at the gate from');
    const otherBefore = (await otherPhone.getByTestId('driver-live').textContent()) ?? '';
    await page.bringToFront();

    await scan.click();
    await expect(heading(page)).toHaveText('Please wait — you will be called (position 1)', { timeout: 30_000 });
    await expect(phone.getByTestId('driver-live-title')).toHaveText('Please wait — you will be called (position 1)');
    await expect(page.getByTestId('kiosk-result')).toContainText(booking.vehicleRegistration);
    await expectNoSeriousA11yViolations(page, 'kiosk waiting, tablet');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'kiosk-wait-tablet.png'), fullPage: true });

    // The dock master calls the truck (through the API): the kiosk follows without a reload.
    const started = await request.post(`/api/sites/${site.id}/gate/bookings/${booking.id}/start`, { headers: ownOrg.headers, data: {} });
    expect(started.status(), await started.text()).toBe(200);
    const { booking: atBay } = (await started.json()) as { booking: { bayName: string } };
    await expect(heading(page)).toHaveText(`Go to bay ${atBay.bayName}`, { timeout: 15_000 });
    await expect(phone.getByTestId('driver-live-title')).toHaveText(`Go to bay ${atBay.bayName}`);
    // The other haulier's page heard nothing of it.
    expect(otherFrames.filter((f) => /"type":"(event|queue)"/.test(f))).toEqual([]);
    expect(otherFrames.join('\n')).not.toContain(booking.id);
    await expect(otherPhone.getByTestId('driver-live')).toHaveText(otherBefore);
    expect(other.id).not.toBe(booking.id);
    await phone.close();
    await otherPhone.close();
    await expectNoSeriousA11yViolations(page, 'kiosk go to bay, tablet');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'kiosk-go-to-bay-tablet.png'), fullPage: true });

    // On a phone-sized screen: a truck without a booking registers as a walk-in.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(heading(page)).toHaveText('Welcome — check in here');
    await expectNoSeriousA11yViolations(page, 'kiosk start, phone');
    await page.getByRole('button', { name: 'Type your plate' }).click();
    const unknownPlate = `WI${stamp.slice(-5)}`;
    await page.getByRole('textbox', { name: 'Vehicle registration' }).fill(unknownPlate);
    await page.getByRole('button', { name: 'Check in' }).click();
    await expect(heading(page)).toHaveText('No booking found');
    await page.getByRole('button', { name: 'Register as walk-in' }).click();
    await expect(page.getByRole('textbox', { name: 'Vehicle registration' })).toHaveValue(unknownPlate);
    await page.getByRole('textbox', { name: 'Company' }).fill('Roadside Freight');
    await expectNoSeriousA11yViolations(page, 'kiosk walk-in form, phone');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'kiosk-walk-in-phone.png'), fullPage: true });
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(heading(page)).toHaveText('Request sent');
    await expectNoSeriousA11yViolations(page, 'kiosk request sent, phone');

    const requests = await request.get(`/api/sites/${site.id}/kiosk/walk-in-requests`, { headers: ownOrg.headers });
    expect(((await requests.json()) as Array<{ vehicleRegistration: string }>).map((r) => r.vehicleRegistration)).toContain(unknownPlate);
    await context.close();
  } finally {
    await browser.close();
  }
});

test('a revoked kiosk says so and asks for a new secret', async ({ page, request, ownOrg }) => {
  const site = ownOrg.site(SITE);
  const registered = await request.post(`/api/orgs/${ownOrg.orgId}/settings/kiosk-devices`, { headers: ownOrg.headers, data: { siteId: site.id, name: 'Old tablet' } });
  const device = (await registered.json()) as { id: string; secret: string };
  await request.delete(`/api/orgs/${ownOrg.orgId}/settings/kiosk-devices/${device.id}`, { headers: ownOrg.headers });
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.goto(`/kiosk#token=${device.secret}`);
  await expect(heading(page)).toHaveText('Set up this kiosk');
  await expect(page.getByRole('alert')).toContainText('revoked');
  await expectNoSeriousA11yViolations(page, 'kiosk setup, revoked');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'kiosk-setup-revoked.png'), fullPage: true });
});

test('the dock queue shows the kiosk’s walk-in requests live; a dock master declines one after confirming', async ({ page, request, ownOrg }) => {
  const site = ownOrg.site(SITE);
  const registered = await request.post(`/api/orgs/${ownOrg.orgId}/settings/kiosk-devices`, { headers: ownOrg.headers, data: { siteId: site.id, name: 'Queue tablet' } });
  const { secret } = (await registered.json()) as { secret: string };
  const kiosk = { authorization: `Kiosk ${secret}` };
  await signInAtDock(page, ownOrg.name, SITE);
  await page.setViewportSize({ width: 820, height: 1180 });
  // The request must reach a page already subscribed to the site's events (live, not loaded).
  const subscribed = new Promise<void>((resolve) =>
    page.on('websocket', (ws) => ws.on('framereceived', (frame) => String(frame.payload).includes('"subscribed"') && resolve())),
  );
  await page.goto('/dockmaster/queue');
  await expect(page.getByRole('heading', { name: 'Gate Queue', level: 1 })).toBeVisible();
  await subscribed;
  const plate = `DQ${stamp.slice(-5)}`;
  const asked = await request.post('/api/kiosk/walk-in-requests', { headers: kiosk, data: { plate, company: 'Queue Freight', driverName: 'Dana' } });
  expect(asked.status(), await asked.text()).toBe(201);
  // Live: no reload.
  const item = page.locator(`[data-testid="walk-in-request"][data-plate="${plate}"]`);
  await expect(item).toContainText('Queue Freight · Dana');
  await expectNoSeriousA11yViolations(page, 'dock queue with kiosk requests');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dock-queue-kiosk-requests.png'), fullPage: true });
  await item.getByRole('button', { name: `Decline ${plate}` }).click();
  await page.getByRole('textbox', { name: 'Reason (optional)' }).fill('No slot today');
  await page.getByRole('button', { name: 'Decline request' }).click();
  await expect(item).toHaveCount(0);
});
