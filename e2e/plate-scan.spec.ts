import fs from 'node:fs';
import path from 'node:path';
import { chromium, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { PLATE_PHOTO_TYPE_MESSAGE, PLATE_UNREADABLE_MESSAGE } from '../domain/plate-reads';
import { localTimeOf } from '../domain/slot-grid';
import { CAMERA_PLATE, VAN_REAR_PHOTO, VAN_REAR_PLATE, renderVanRear } from './fixtures/plates/make-plates';
import { SCREENSHOT_DIR, chooseOption, expect, expectNoSeriousA11yViolations, signInAtOrgAdmin, test } from './fixtures';
import type { OwnOrg } from './own-org';
import { bookDueNow, signInAtDock, type GateBooking } from './gate-test-site';

// The plate scanner (issue 10): in an organization of each test's own (ownOrg) with its dock staff,
// at a gate open round the clock (so this passes at any hour), a dock master checks vehicle A in from a typed plate with an OCR-ish variant and
// vehicle B from a photo read by the server; each is called to a bay on the dock dashboard and
// checked out from the scanner, while an org admin's Live Operations follows every step without a
// reload. Unknown, ambiguous and bad reads get a clear answer and change nothing they should not;
// the device camera is read with Chromium's fake camera (a video made from the plate photo).

const PHOTO = path.join(import.meta.dirname, 'fixtures', 'plates', VAN_REAR_PHOTO);
/** A 1 × 1 white PNG: a picture with no plate in it. */
const BLANK_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC', 'base64');

const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 4)}`.toUpperCase();
const digits = String(100 + (Date.now() % 900));

const SITE = 'Scan Gate';
test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: SITE, hours: 'all-day', bays: Array.from({ length: 7 }, (_, i) => ({ name: `G${i + 1}`, heightClearanceM: 4.5 })) }],
  },
});

/** The vehicles the tests expect, by key: each due at the next half-hour slot unless said. */
const VEHICLES = {
  a: { tsrNumber: `TSR-SCAN-A-${stamp}`, vehicleRegistration: `PS${digits}0K` },
  b: { tsrNumber: `TSR-SCAN-B-${stamp}`, vehicleRegistration: VAN_REAR_PLATE },
  // Two plates one character apart: a read between them is ambiguous.
  q1: { tsrNumber: `TSR-SCAN-Q1-${stamp}`, vehicleRegistration: `QX${digits}4` },
  q2: { tsrNumber: `TSR-SCAN-Q2-${stamp}`, vehicleRegistration: `QX${digits}7` },
  // Expected later today (2½ hours after the next slot): its plate matches, but check-in opens only an hour before its start.
  later: { tsrNumber: `TSR-SCAN-L-${stamp}`, vehicleRegistration: `LT${digits}9W`, slotsLater: 5 },
  camera: { tsrNumber: `TSR-SCAN-C-${stamp}`, vehicleRegistration: CAMERA_PLATE },
  auto: { tsrNumber: `TSR-SCAN-AU-${stamp}`, vehicleRegistration: `AU${digits}3R` },
};
type VehicleKey = keyof typeof VEHICLES;

/** Books the vehicles `keys` at the organization's gate through the API (approved). */
async function book<K extends VehicleKey>(request: APIRequestContext, org: OwnOrg, keys: K[]): Promise<Record<K, GateBooking>> {
  const booked = {} as Record<K, GateBooking>;
  for (const key of keys) booked[key] = await bookDueNow(request, org, org.site(SITE), VEHICLES[key]);
  return booked;
}

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text }).last();
const result = (page: Page) => page.getByTestId('read-result');
const candidate = (page: Page, registration: string) => result(page).locator(`[data-testid="plate-candidate"][data-registration="${registration}"]`);
const unresolved = (page: Page) => page.getByTestId('unresolved-reads');

async function typePlate(page: Page, plate: string): Promise<void> {
  await page.getByRole('tab', { name: 'Type' }).click();
  await page.getByRole('textbox', { name: 'Number plate' }).fill(plate);
  await page.getByRole('button', { name: 'Find vehicle' }).click();
}

async function uploadPhoto(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.getByRole('tab', { name: 'Photo' }).click();
  await page.locator('input[type="file"]').setInputFiles(file);
}

/** The admin's Live Operations board of the test's site. */
const board = (live: Page) => live.locator(`section[data-site="${SITE}"]`);
const onSiteRow = (live: Page, b: GateBooking) => board(live).getByTestId('on-site').locator(`[data-booking="${b.tsrNumber}"]`);

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** Every button and tab of the scanner is at least 44 px high (gate tablets and phones). */
async function expectTouchTargets(scope: Locator): Promise<void> {
  const small = await scope.locator('button:visible, [role="tab"]:visible, input:visible').evaluateAll((elements) =>
    elements
      .filter((e) => !(e as HTMLInputElement).type || !['file', 'hidden', 'checkbox'].includes((e as HTMLInputElement).type))
      .map((e) => ({ text: (e.getAttribute('aria-label') ?? e.textContent ?? '').trim(), height: e.getBoundingClientRect().height }))
      .filter((e) => Math.round(e.height) < 44), // layout sizes are fractional: 43.99997 px is 44
  );
  expect(small).toEqual([]);
}

/** Calls the vehicle to its bay from the dock dashboard (the gate's Start). */
async function startAtBay(page: Page, b: GateBooking): Promise<void> {
  await page.getByRole('navigation', { name: 'Dock Master navigation' }).getByRole('link', { name: 'Dashboard' }).click();
  const row = page.getByTestId('live-list').getByTestId('gate-booking').filter({ hasText: b.vehicleRegistration });
  await expect(row.getByTestId('booking-status')).toHaveText('Checked in');
  await row.getByRole('button', { name: /^Start/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Start at bay' });
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('booking-status')).toHaveText('In progress');
  await page.getByRole('navigation', { name: 'Dock Master navigation' }).getByRole('link', { name: 'Plate Scanner' }).click();
  await expect(page.getByRole('heading', { name: 'Plate Scanner', level: 1 })).toBeVisible();
}

test('a dock master checks vehicles in and out by plate while Live Operations follows', async ({ page, browser, request, ownOrg, capture }) => {
  test.setTimeout(300_000);
  const { a, b, q1, q2, later } = await book(request, ownOrg, ['a', 'b', 'q1', 'q2', 'later']);
  const site = ownOrg.site(SITE);
  // A screenshot once the notifications have closed by themselves: axe must not catch one fading out
  // (its text is then nearly white on white), and each has been asserted where it appeared.
  const shoot = async (name: string, options?: { fullPage?: boolean }) => {
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await capture(name, options);
  };

  // The org admin watches the site's live board in a browser of their own.
  const adminContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const live = await adminContext.newPage();
  await signInAtOrgAdmin(live, ownOrg.name, ownOrg.adminEmail);
  await expect(live).toHaveURL(/\/org\//);
  await live.goto('/org/ops/live');
  await expect(board(live).getByRole('heading', { name: site.name, level: 2 })).toBeVisible();
  await expect(board(live).getByTestId('arrivals').locator(`[data-booking="${a.tsrNumber}"]`)).toBeVisible();

  await signInAtDock(page, ownOrg.name, site.name);
  await page.getByRole('navigation', { name: 'Dock Master navigation' }).getByRole('link', { name: 'Plate Scanner' }).click();
  await expect(page).toHaveURL('/dockmaster/scan');
  await expect(page.getByRole('heading', { name: 'Plate Scanner', level: 1 })).toBeVisible();
  await expect(page.getByText(`${site.name} · read a plate by camera, photo or typing`)).toBeVisible();
  await expect(unresolved(page).getByText('No unresolved reads at this site.')).toBeVisible();

  // No camera in this browser (or no permission): a clear message, and the other ways still work.
  await page.getByRole('button', { name: 'Start camera' }).click();
  const cameraError = page.getByTestId('camera-error');
  await expect(cameraError).toContainText(/Camera access was denied|No camera was found|The camera could not be started/);
  await cameraError.getByRole('button', { name: 'Type the plate' }).click();
  await expect(page.getByRole('tab', { name: 'Type' })).toHaveAttribute('aria-selected', 'true');

  // Typed: checked with the server's rule before anything is sent.
  await page.getByRole('button', { name: 'Find vehicle' }).click();
  await expect(page.getByText('Enter the number plate')).toBeVisible();
  await page.getByRole('textbox', { name: 'Number plate' }).fill('a-1');
  await page.getByRole('button', { name: 'Find vehicle' }).click();
  await expect(page.getByText('A number plate has 3 to 10 letters and digits')).toBeVisible();
  await expect(result(page)).toHaveCount(0);

  // Vehicle A, typed with the letter O for the zero and in lower case: matched all the same.
  await typePlate(page, `ps ${digits} ok`);
  await expect(result(page)).toHaveAttribute('data-status', 'matched');
  await expect(result(page).getByTestId('read-plate')).toHaveText(`PS${digits}OK`);
  await expect(page.getByTestId('repeat-note')).toHaveCount(0);
  // The same plate again within a minute (as written on the booking this time): one event, nothing new stored.
  await typePlate(page, a.vehicleRegistration);
  await expect(page.getByTestId('repeat-note')).toContainText('nothing new was recorded');
  await expect(result(page).getByTestId('read-plate')).toHaveText(`PS${digits}OK`);
  await expect(result(page)).toContainText('Vehicle found');
  await expect(candidate(page, a.vehicleRegistration)).toContainText(a.tsrNumber);
  await expect(candidate(page, a.vehicleRegistration).getByTestId('booking-status')).toHaveText('Approved');
  await expect(page.getByRole('textbox', { name: 'Number plate' })).toHaveValue('');
  await shoot('plate-scan-matched');
  await expectTouchTargets(page.getByRole('main'));
  await candidate(page, a.vehicleRegistration).getByRole('button', { name: `Check In ${a.vehicleRegistration}` }).click();
  await expect(toast(page, 'Checked in')).toContainText(a.tsrNumber);
  await expect(candidate(page, a.vehicleRegistration).getByTestId('booking-status')).toHaveText('Checked in');
  await expect(candidate(page, a.vehicleRegistration).getByRole('button')).toHaveCount(0);
  await expect(candidate(page, a.vehicleRegistration).getByTestId('candidate-note')).toContainText('call it to its bay');
  // … and the admin's board shows A on site, without a reload.
  await expect(onSiteRow(live, a)).toContainText('Checked in');

  // Vehicle B from a photo, read by the server.
  await uploadPhoto(page, PHOTO);
  await expect(result(page).getByTestId('read-plate')).toHaveText(VAN_REAR_PLATE.replace(/\s/g, ''));
  await expect(result(page)).toHaveAttribute('data-status', 'matched');
  await expect(result(page)).toContainText('Photo');
  await candidate(page, b.vehicleRegistration).getByRole('button', { name: `Check In ${b.vehicleRegistration}` }).click();
  await expect(candidate(page, b.vehicleRegistration).getByTestId('booking-status')).toHaveText('Checked in');
  await expect(onSiteRow(live, b)).toContainText('Checked in');

  // Not a picture, and a picture without a plate: the server's message, nothing read.
  await uploadPhoto(page, { name: 'delivery-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Not a photo of a plate') });
  await expect(page.getByTestId('photo-error')).toContainText(PLATE_PHOTO_TYPE_MESSAGE);
  await uploadPhoto(page, { name: 'blank.png', mimeType: 'image/png', buffer: BLANK_PNG });
  await expect(page.getByTestId('photo-error')).toContainText(PLATE_UNREADABLE_MESSAGE);
  await expect(unresolved(page).getByText('No unresolved reads at this site.')).toBeVisible();

  // A plate nobody expects: kept as unmatched for the dock master, listed live, ignored.
  await typePlate(page, 'JWH 6XU');
  await expect(result(page)).toHaveAttribute('data-status', 'unmatched');
  await expect(result(page)).toContainText('The read is kept as unmatched for the dock master to resolve');
  const unknownRead = unresolved(page).locator('[data-plate="JWH6XU"]');
  await expect(unknownRead).toContainText('Unmatched');
  await expect(unknownRead).toContainText('Typed');
  await shoot('plate-scan-unmatched');
  await unknownRead.getByRole('button', { name: 'Ignore JWH6XU' }).click();
  await expect(toast(page, 'Read ignored')).toBeVisible();
  await expect(unknownRead).toHaveCount(0);

  // Another unknown plate, resolved by hand to the booking it belongs to.
  await typePlate(page, 'FNV 9TT');
  const secondRead = unresolved(page).locator('[data-plate="FNV9TT"]');
  await expect(secondRead).toBeVisible();
  await secondRead.getByRole('button', { name: 'Resolve FNV9TT' }).click();
  const resolveDialog = page.getByRole('dialog', { name: 'Resolve FNV9TT' });
  await resolveDialog.getByRole('button', { name: 'Resolve' }).click();
  await expect(resolveDialog.getByRole('alert')).toHaveText('Choose the booking this vehicle belongs to');
  await expectTouchTargets(resolveDialog);
  await shoot('plate-scan-resolve', { fullPage: false });
  await resolveDialog.getByRole('textbox', { name: 'Booking' }).click();
  await page.getByRole('option', { name: new RegExp(`^${q2.vehicleRegistration} · ${q2.tsrNumber}`) }).click();
  await resolveDialog.getByRole('button', { name: 'Resolve' }).click();
  await expect(resolveDialog).toBeHidden();
  await expect(toast(page, 'Read resolved')).toContainText(q2.tsrNumber);
  await expect(secondRead).toHaveCount(0);

  // Between two plates: both offered; checking one in settles the read.
  await typePlate(page, `QX${digits}`);
  await expect(result(page)).toHaveAttribute('data-status', 'ambiguous');
  await expect(result(page)).toContainText('More than one vehicle matches');
  await expect(result(page).getByTestId('plate-candidate')).toHaveCount(2);
  await expect(unresolved(page).locator(`[data-plate="QX${digits}"]`)).toContainText('Ambiguous');
  await shoot('plate-scan-ambiguous');
  await candidate(page, q1.vehicleRegistration).getByRole('button', { name: `Check In ${q1.vehicleRegistration}` }).click();
  await expect(candidate(page, q1.vehicleRegistration).getByTestId('booking-status')).toHaveText('Checked in');
  await expect(unresolved(page).locator(`[data-plate="QX${digits}"]`)).toHaveCount(0);
  // The other one is still expected: its Check In stays.
  await expect(candidate(page, q2.vehicleRegistration).getByRole('button', { name: `Check In ${q2.vehicleRegistration}` })).toBeVisible();

  // A and B are called to their bays on the dock dashboard; the board shows each bay occupied.
  await startAtBay(page, a);
  await expect(board(live).locator('[data-bay]').filter({ hasText: a.tsrNumber }).locator('[data-field="state"]')).toHaveText('Occupied');
  await expect(onSiteRow(live, a)).toContainText('In progress');
  await startAtBay(page, b);
  await expect(board(live).locator('[data-bay]').filter({ hasText: b.tsrNumber }).locator('[data-field="state"]')).toHaveText('Occupied');

  // Checked out from the scanner: A typed again, B's photo again.
  await typePlate(page, a.vehicleRegistration.toLowerCase());
  await expect(candidate(page, a.vehicleRegistration).getByTestId('booking-status')).toHaveText('In progress');
  await candidate(page, a.vehicleRegistration).getByRole('button', { name: `Check Out ${a.vehicleRegistration}` }).click();
  await expect(toast(page, 'Checked out')).toContainText(a.tsrNumber);
  await expect(candidate(page, a.vehicleRegistration).getByTestId('booking-status')).toHaveText('Completed');
  await expect(onSiteRow(live, a)).toHaveCount(0);

  await uploadPhoto(page, PHOTO);
  await expect(candidate(page, b.vehicleRegistration).getByTestId('booking-status')).toHaveText('In progress');
  await candidate(page, b.vehicleRegistration).getByRole('button', { name: `Check Out ${b.vehicleRegistration}` }).click();
  await expect(candidate(page, b.vehicleRegistration).getByTestId('booking-status')).toHaveText('Completed');
  await expect(onSiteRow(live, b)).toHaveCount(0);
  await expect(board(live).locator('[data-bay]').filter({ hasText: b.tsrNumber })).toHaveCount(0);

  // Too early: the server's reason, and nothing changed.
  await typePlate(page, later.vehicleRegistration);
  await expect(result(page)).toHaveAttribute('data-status', 'matched');
  await candidate(page, later.vehicleRegistration).getByRole('button', { name: `Check In ${later.vehicleRegistration}` }).click();
  await expect(page.getByTestId('move-error')).toContainText('It is too early to check this booking in: check-in is open');
  await expect(page.getByTestId('move-error')).toContainText('Nothing was changed.');
  await expect(candidate(page, later.vehicleRegistration).getByTestId('booking-status')).toHaveText('Approved');
  await expect(board(live).getByTestId('on-site').locator(`[data-booking="${later.tsrNumber}"]`)).toHaveCount(0);

  // Tablet and phone at the gate: nothing scrolls sideways, every target is at least 44 px.
  await page.setViewportSize({ width: 820, height: 1180 });
  await expectNoSidewaysScroll(page);
  await expectTouchTargets(page.getByRole('main'));
  await shoot('plate-scan-tablet');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await expectTouchTargets(page.getByRole('main'));
  await shoot('plate-scan-phone');

  // The org admin's scanner (/org/ops/scan): the site is chosen on the screen; admins resolve reads too.
  await live.goto('/org/ops/scan');
  await expect(live.getByRole('heading', { name: 'Plate Scanner', level: 1 })).toBeVisible();
  await chooseOption(live, 'Scan at site', site.name);
  await expect(live.getByText(`${site.name} · read a plate by camera, photo or typing`)).toBeVisible();
  await typePlate(live, 'HZR 1KD');
  await expect(result(live)).toHaveAttribute('data-status', 'unmatched');
  const adminRead = unresolved(live).locator('[data-plate="HZR1KD"]');
  await expect(adminRead.getByRole('button', { name: 'Resolve HZR1KD' })).toBeVisible();
  // (capture() shoots the dock master's page: the admin's is taken here.)
  await expectNoSeriousA11yViolations(live, 'plate scanner in the organization area');
  await live.screenshot({ path: path.join(SCREENSHOT_DIR, 'plate-scan-org.png'), fullPage: true });
  // The dock master's open scanner lists the admin's read without a reload …
  await expect(unresolved(page).locator('[data-plate="HZR1KD"]')).toContainText('Unmatched');
  await adminRead.getByRole('button', { name: 'Ignore HZR1KD' }).click();
  await expect(adminRead).toHaveCount(0);
  // … and drops it once the admin has ignored it.
  await expect(unresolved(page).locator('[data-plate="HZR1KD"]')).toHaveCount(0);

  await adminContext.close();
});

/** A Y4M video (the fake camera's format: a text header, then raw YUV 4:2:0 frames) of one still picture. */
async function y4mOf(png: Buffer, file: string): Promise<void> {
  const width = 1024;
  const height = 768;
  const { data } = await sharp(png).resize(width, height).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const luma = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  const clamp = (x: number) => Math.max(0, Math.min(255, Math.round(x)));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      luma[y * width + x] = clamp(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    }
  }
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        const i = ((y + dy) * width + x + dx) * 3;
        r += data[i]! / 4;
        g += data[i + 1]! / 4;
        b += data[i + 2]! / 4;
      }
      const j = (y / 2) * (width / 2) + x / 2;
      u[j] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      v[j] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from('FRAME\n'), luma, u, v]));
}

test('the device camera reads a plate in the browser and sends it', async ({ request, ownOrg }, testInfo) => {
  test.setTimeout(240_000);
  const { camera } = await book(request, ownOrg, ['camera']);
  const video = testInfo.outputPath('plate.y4m');
  fs.mkdirSync(path.dirname(video), { recursive: true });
  await y4mOf(await renderVanRear(CAMERA_PLATE), video);
  const launch = testInfo.project.use.launchOptions ?? {};
  // Chromium's fake camera plays the video; its permission prompt is answered yes.
  const cameraBrowser = await chromium.launch({
    ...launch,
    args: [...(launch.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  });
  try {
    const context = await cameraBrowser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 820, height: 1180 } });
    await context.grantPermissions(['camera']);
    const page = await context.newPage();
    // Security staff at the gate: they read plates and check vehicles in, and leave unresolved reads to the dock master.
    await signInAtDock(page, ownOrg.name, SITE, 'S1001');
    await page.goto('/dockmaster/scan');
    await expect(page.getByRole('tab', { name: 'Camera' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('button', { name: 'Start camera' }).click();
    await expect(page.getByTestId('camera-video')).toBeVisible();
    await expect.poll(() => page.getByTestId('camera-video').evaluate((v) => (v as HTMLVideoElement).videoWidth)).toBe(1024);
    await page.getByRole('button', { name: 'Read plate' }).click();
    await expect(result(page).getByTestId('read-plate')).toHaveText(CAMERA_PLATE.replace(/\s/g, ''), { timeout: 120_000 });
    await expect(result(page)).toContainText('Device camera');
    await expect(result(page)).toHaveAttribute('data-status', 'matched');
    await candidate(page, camera.vehicleRegistration).getByRole('button', { name: `Check In ${camera.vehicleRegistration}` }).click();
    await expect(candidate(page, camera.vehicleRegistration).getByTestId('booking-status')).toHaveText('Checked in');
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0); // as shoot() does
    await expectNoSeriousA11yViolations(page, 'plate scanner, camera on');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'plate-scan-camera.png'), fullPage: true });

    await typePlate(page, 'WDQ 3MV');
    await expect(result(page)).toHaveAttribute('data-status', 'unmatched');
    const read = unresolved(page).locator('[data-plate="WDQ3MV"]');
    await expect(read).toContainText('Unmatched');
    await expect(unresolved(page)).toContainText('A dock master resolves them.');
    await expect(read.getByRole('button')).toHaveCount(0);

    // Stop releases the camera: the video has no stream any more.
    await page.getByRole('tab', { name: 'Camera' }).click();
    await page.getByRole('button', { name: 'Start camera' }).click();
    await expect(page.getByRole('button', { name: 'Stop camera' })).toBeVisible();
    await page.getByRole('button', { name: 'Stop camera' }).click();
    await expect(page.getByRole('button', { name: 'Start camera' })).toBeVisible();
    expect(await page.getByTestId('camera-video').evaluate((v) => (v as HTMLVideoElement).srcObject)).toBeNull();
    await context.close();
  } finally {
    await cameraBrowser.close();
  }
});

test('with the organization’s automatic check-in on, a confident read checks the vehicle in', async ({ page, request, ownOrg }) => {
  const { auto } = await book(request, ownOrg, ['auto']);
  const settings = `/api/orgs/${ownOrg.orgId}/settings`;
  const changed = await request.patch(settings, { headers: ownOrg.headers, data: { numberPlates: { autoCheckIn: true } } });
  expect(changed.ok(), await changed.text()).toBeTruthy();
  await signInAtDock(page, ownOrg.name, SITE);
  await page.goto('/dockmaster/scan');
  await typePlate(page, auto.vehicleRegistration.toLowerCase());
  await expect(result(page)).toHaveAttribute('data-status', 'matched');
  await expect(page.getByTestId('auto-check-in')).toContainText('Checked in automatically');
  await expect(page.getByTestId('auto-check-in')).toContainText('recorded in the audit log');
  // The answer shows the vehicle as it now is: nothing left to tap at the gate.
  await expect(candidate(page, auto.vehicleRegistration).getByTestId('booking-status')).toHaveText('Checked in');
  await expect(candidate(page, auto.vehicleRegistration).getByRole('button')).toHaveCount(0);
});

test('a plate booked later today is told with its time at the site, not as unexpected', async ({ page, request, ownOrg, capture }) => {
  // Five and a half hours after the next slot: past the expected window (4 h), still today at a site near noon.
  const laterToday = await bookDueNow(request, ownOrg, ownOrg.site(SITE), { tsrNumber: `TSR-SCAN-LT-${stamp}`, vehicleRegistration: `LD${digits}5Q`, slotsLater: 11 });
  const site = ownOrg.site(SITE);
  const startsAt = localTimeOf(new Date(Math.ceil((Date.now() + 60_000) / 1_800_000) * 1_800_000 + 11 * 1_800_000), site.timeZone);
  await signInAtDock(page, ownOrg.name, SITE);
  await page.goto('/dockmaster/scan');
  await typePlate(page, laterToday.vehicleRegistration.toLowerCase());
  await expect(result(page)).toHaveAttribute('data-status', 'later');
  await expect(result(page).getByRole('heading', { name: 'Booked later today' })).toBeVisible();
  await expect(result(page)).toContainText(`${laterToday.vehicleRegistration} is booked at this site for ${startsAt} today (${laterToday.tsrNumber}, bay G`);
  await expect(result(page)).not.toContainText('No vehicle expected');
  // Nothing to check in yet: no candidate card offers a move.
  await expect(result(page).getByRole('button')).toHaveCount(0);
  await capture('plate-scan-booked-later-today');
  // A plate booked nowhere today is still unexpected.
  await typePlate(page, `NB${digits}0X`);
  await expect(result(page)).toHaveAttribute('data-status', 'unmatched');
  await expect(result(page)).toContainText('No vehicle expected at or on this site matches');
});
