import type { APIRequestContext, Page } from '@playwright/test';
import { expect, latestMailTo, test } from './fixtures';

// The public booking portal (issue 3): landing, help and terms, the request form end to end,
// its validation, a lost race for the last bay, and the haulier's private manage link. The pages
// are read on the demo data; the bookings are made in an organization of each test's own (ownOrg)
// whose North Terminal has a refrigerated bay and one tall bay, N-12 (5.5 m).

test.use({
  ownOrgSetup: {
    sites: [
      {
        name: 'North Terminal',
        bays: [
          { name: 'N-01', heightClearanceM: 3.8, features: ['refrigerated'] },
          { name: 'N-02', heightClearanceM: 4.2 },
          { name: 'N-12', heightClearanceM: 5.5 },
        ],
      },
    ],
  },
});

const NO_BAY_MESSAGE = 'No compatible bay is available at the selected time. Please choose a different time slot.';

/** A minimal but real PDF: the server checks documents by content, not by name. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function organizationId(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.get('/api/public/organizations');
  expect(response.ok()).toBeTruthy();
  const orgs = (await response.json()) as Array<{ id: string; name: string }>;
  const org = orgs.find((o) => o.name === name);
  expect(org, `organization ${name}`).toBeTruthy();
  return org!.id;
}

/** A calendar date `days` from today (browser and test run on the same machine). */
function dateInDays(days: number): { iso: string; label: string; date: Date } {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const iso = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const label = `${d.getDate()} ${d.toLocaleString('en-US', { month: 'long' })} ${d.getFullYear()}`;
  return { iso, label, date: d };
}

/** Types a day into a date field (the browser's own date input, limited to the bookable days). */
async function pickDate(page: Page, inputLabel: string, day: { iso: string }): Promise<void> {
  const input = page.getByRole('textbox', { name: inputLabel, exact: true });
  await input.fill(day.iso);
  await expect(input).toHaveValue(day.iso);
}

/** Waits for the grid and picks a free slot (a given time, or the first free one). */
async function pickSlot(page: Page, time?: string): Promise<string> {
  const grid = page.getByTestId('slot-grid');
  await expect(grid.getByText(/compatible bay\(s\) available/)).toBeVisible();
  const slot = time
    ? grid.locator(`button[data-slot="${time}"]`)
    : grid.locator('button[data-slot]:not([disabled])').nth(4);
  await expect(slot).toBeEnabled();
  const picked = (await slot.getAttribute('data-slot'))!;
  await slot.click();
  await expect(slot).toHaveAttribute('aria-pressed', 'true');
  return picked;
}

test.describe('public booking portal', () => {
  test.describe(() => {
    // The landing page lists the sites of every organization that takes bookings: read alone.
    test.use({ runAlone: true });
    test('the landing page shows requirements, hours, locations and contacts from the site data', async ({ page, capture }) => {
      await page.goto('/book');
      await expect(page.getByRole('link', { name: 'Book a Dock Slot' })).toBeVisible();
      for (const item of ['Valid TSR number', 'Vehicle dimensions', 'Consignment documentation', 'Induction certificate', 'Contact information', 'Emergency contact']) {
        await expect(page.getByText(item, { exact: true })).toBeVisible();
      }
      await expect(page.getByText('Bookings must be made at least 2 hours in advance.')).toBeVisible();
      const northHours = page.getByRole('table', { name: 'North Terminal' });
      await expect(northHours.getByRole('row', { name: 'Mon-Fri 06:00-22:00' })).toBeVisible();
      await expect(northHours.getByRole('row', { name: 'Sat 08:00-18:00' })).toBeVisible();
      await expect(northHours.getByRole('row', { name: 'Sun 10:00-16:00' })).toBeVisible();
      await expect(page.getByText('12 bays')).toBeVisible();
      await expect(page.getByText('Max height 5.5 m')).toBeVisible();
      await expect(page.getByText('8 bays')).toBeVisible();
      await expect(page.getByText('Max height 4.2 m')).toBeVisible();
      await expect(page.getByRole('link', { name: 'north.terminal@acme.test' })).toBeVisible();
      await capture('book-landing');

      await page.getByRole('link', { name: 'Book a Dock Slot' }).click();
      await expect(page).toHaveURL(/\/book\/request$/);
      await expect(page.getByRole('heading', { name: 'Request a Dock Slot' })).toBeVisible();
    });
  });

  test('help and terms pages carry real content', async ({ page, capture }) => {
    await page.goto('/book/help');
    for (const heading of ['How booking works', 'What you need', 'What to bring on the day', 'Arrival and check-in', 'Changing or cancelling', 'Contacts']) {
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'south.terminal@acme.test' })).toBeVisible();
    await capture('book-help');

    await page.goto('/book/terms');
    await expect(page.getByRole('heading', { name: '5. Cancellation and rescheduling' })).toBeVisible();
    await capture('book-terms');
  });

  test('the portal works on a phone-sized screen', async ({ page, request, capture }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/book');
    await expect(page.getByRole('link', { name: 'Book a Dock Slot' })).toBeVisible();
    await capture('book-landing-mobile');
    const orgId = await organizationId(request, 'Acme Logistics');
    await page.goto(`/book/request?org=${orgId}`);
    await pickDate(page, 'Date', dateInDays(3));
    await pickSlot(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
    await capture('book-request-mobile');
  });

  test('the request form comes in a few files named in the page itself, its data with them', async ({ page, request }) => {
    // Issue 25: on a phone's network (HTTP/1.1: 6 files at a time, a round trip each) the form
    // came in 49 files, asked for one after another as the entry and then the router ran.
    const orgId = await organizationId(request, 'Acme Logistics');
    const scripts = new Set<string>();
    const answers: string[] = [];
    page.on('request', (sent) => {
      const { pathname } = new URL(sent.url());
      if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.add(pathname);
      if (pathname === '/api/public/organizations' || pathname === '/api/public/booking-info') answers.push(pathname);
    });
    const response = await page.goto(`/book/request?org=${orgId}`);
    const html = await response!.text();
    await expect(page.getByRole('textbox', { name: 'Company Name' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit Booking Request' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.size, [...scripts].join(', ')).toBeLessThanOrEqual(10);
    // Every one named in the page the server sent (the entry, or a preload of this route)…
    for (const script of scripts) expect(html, script).toContain(`"${script}"`);
    // …and none of the signed-in screens' libraries (the validator's zod loads on first focus).
    expect([...scripts].filter((script) => /vendor-(charts|zod)/.test(script))).toEqual([]);
    // The answers were preloaded by the page and used by the form, not asked for a second time.
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/public/booking-info">');
    expect(answers.sort()).toEqual(['/api/public/booking-info', '/api/public/organizations']);

    // No text box measured on mount (Mantine's autosize copies one into <body> and reads its
    // computed style, forcing the page's style and layout before the form could paint)…
    expect(await page.locator('body > textarea[aria-hidden="true"]').count()).toBe(0);
    // …yet they still grow with their text (CSS field-sizing).
    const goods = page.getByRole('textbox', { name: 'Goods Description' });
    const height = () => goods.evaluate((box) => box.getBoundingClientRect().height);
    const emptyHeight = await height();
    await goods.fill('pallet\n'.repeat(6));
    await expect.poll(height).toBeGreaterThan(emptyHeight + 40);
  });

  test('the empty form shows every validation message, joined by commas', async ({ page, capture }) => {
    await page.goto('/book/request');
    // Two organizations take bookings and none was given: the haulier chooses.
    await expect(page.getByRole('heading', { name: 'Select Organization' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Organization', exact: true }).selectOption({ label: 'Acme Logistics' });

    const submit = page.getByRole('button', { name: 'Submit Booking Request' });
    await expect(submit).toBeDisabled();
    await expect(page.getByText('Choose a date to see the available time slots.')).toBeVisible();

    await pickDate(page, 'Date', dateInDays(3));
    await expect(submit).toBeDisabled();
    await pickSlot(page);
    await expect(submit).toBeEnabled();
    await submit.click();

    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Validation Error' });
    await expect(toast).toContainText(
      'TSR Number is required, Company Name is required, Contact Name is required, Email is required, ' +
        'Vehicle Type is required, Vehicle Registration is required, Vehicle Height is required, ' +
        'Driver induction must be completed, Terms and conditions must be accepted',
    );
    // The same messages sit on the fields.
    await expect(page.getByText('TSR Number is required').first()).toBeVisible();
    await capture('book-request-validation');

    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('not an email');
    await submit.click();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Please enter a valid email address' }).first()).toBeVisible();
  });

  test('a haulier books with a PDF attached and sees the success screen', async ({ page, ownOrg, capture }) => {
    const { orgId } = ownOrg;
    await page.goto(`/book/request?org=${orgId}`);
    await expect(page.getByRole('heading', { name: 'Request a Dock Slot' })).toBeVisible();
    // ?org= preselects the organization: no choice card.
    await expect(page.getByRole('heading', { name: 'TSR Information' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Select Organization' })).toHaveCount(0);

    const tsr = `TSR-E2E-${Date.now()}`;
    const email = `dispatch+${Date.now()}@haulier.test`;
    await page.getByRole('textbox', { name: 'TSR Number', exact: true }).fill(tsr);
    await page.getByRole('combobox', { name: 'TSR System Type' }).selectOption({ label: 'ServiceNow' });
    await page.getByRole('textbox', { name: 'TSR URL' }).fill('https://servicenow.example/tsr/123');
    await page.getByRole('textbox', { name: 'Company Name' }).fill('Coastal Freight Co');
    await page.getByRole('textbox', { name: 'Contact Name' }).fill('Sam Driver');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByRole('textbox', { name: 'Phone' }).fill('+61 400 000 111');
    await page.getByRole('radio', { name: 'Pickup' }).check();

    const duration = page.getByRole('spinbutton', { name: 'Expected Duration (minutes)' });
    await expect(duration).toHaveValue('30');
    await duration.fill('');
    await duration.blur();
    await expect(duration).toHaveValue('30');
    await duration.fill('60');

    await page.getByRole('combobox', { name: 'Vehicle Type' }).selectOption({ label: 'Rigid Truck' });
    const registration = page.getByRole('textbox', { name: 'Vehicle Registration' });
    await registration.pressSequentially('abc12d');
    await expect(registration).toHaveValue('ABC12D');
    await page.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('3.6');
    await page.getByRole('spinbutton', { name: 'Vehicle Length (m)' }).fill('10.5');
    await page.getByRole('checkbox', { name: 'Refrigerated' }).check();

    await pickDate(page, 'Date', dateInDays(4));
    await pickSlot(page);

    await page.getByRole('textbox', { name: 'Goods Description' }).fill('12 pallets of chilled produce');

    // Documents: wrong types are refused with a message; each file can be removed.
    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles([
      { name: 'consignment-note.pdf', mimeType: 'application/pdf', buffer: PDF },
      { name: 'induction.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    await fileInput.setInputFiles([{ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') }]);
    await expect(page.getByText('tool.exe is not an accepted file type (PDF, DOC, DOCX, JPG, JPEG, PNG)')).toBeVisible();
    const attached = page.getByRole('list', { name: 'Attached documents' });
    await expect(attached.getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: 'Remove induction.pdf' }).click();
    await expect(attached.getByRole('listitem')).toHaveCount(1);
    await expect(attached).toContainText('consignment-note.pdf');

    await page.getByRole('checkbox', { name: 'The driver has completed the site induction' }).check();
    await page.getByRole('checkbox', { name: 'I accept the terms and conditions' }).check();
    await page.getByRole('textbox', { name: 'Notes', exact: true }).fill('Call 10 minutes before arrival.');
    await capture('book-request-filled');

    await page.getByRole('button', { name: 'Submit Booking Request' }).click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Booking Submitted Successfully' });
    await expect(toast).toContainText(`Your booking request has been submitted. Reference: ${tsr}`);
    await expect(page.getByRole('heading', { name: 'Booking Request Submitted!' })).toBeVisible();
    await expect(page.getByText('A confirmation email will arrive shortly.')).toBeVisible();
    await expect(page.getByText('within 2 hours during business hours', { exact: false })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Your booking' })).toContainText('North Terminal');
    await expect(page.getByText('1 document attached', { exact: false })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Submit Another Booking' })).toHaveAttribute('href', '/book');
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await capture('book-request-submitted');

    const mail = await latestMailTo(email);
    expect(mail).toContain(tsr);
  });

  test('the last compatible bay goes to one haulier; the other is told No Available Bay', async ({ page, request, ownOrg }) => {
    const { orgId } = ownOrg;
    const day = dateInDays(5);
    await page.goto(`/book/request?org=${orgId}`);
    await page.getByRole('textbox', { name: 'TSR Number', exact: true }).fill(`TSR-LATE-${Date.now()}`);
    await page.getByRole('textbox', { name: 'Company Name' }).fill('Late Logistics');
    await page.getByRole('textbox', { name: 'Contact Name' }).fill('Lee Late');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('lee@late.test');
    await page.getByRole('combobox', { name: 'Vehicle Type' }).selectOption({ label: 'Semi-trailer' });
    await page.getByRole('textbox', { name: 'Vehicle Registration' }).fill('LATE01');
    await page.getByRole('checkbox', { name: 'The driver has completed the site induction' }).check();
    await page.getByRole('checkbox', { name: 'I accept the terms and conditions' }).check();
    // 9 m fits no bay: the grid says so and offers nothing.
    const height = page.getByRole('spinbutton', { name: 'Vehicle Height (m)' });
    await height.fill('9');
    await pickDate(page, 'Date', day);
    await expect(page.getByText('No compatible bays for current vehicle specifications')).toBeVisible();
    await expect(page.locator('button[data-slot]:not([disabled])')).toHaveCount(0);
    // 5.3 m fits one bay only (N-12, 5.5 m); the grid follows the height as it is typed.
    await height.fill('5.3');
    await expect(page.getByText('1 compatible bay(s) available')).toBeVisible();
    const slot = await pickSlot(page);

    // Another haulier takes that bay at that time while this page still shows it free.
    const rival = await request.post('/api/public/bookings', {
      multipart: {
        data: JSON.stringify({
          orgId,
          tsrNumber: `TSR-RIVAL-${Date.now()}`,
          tsrSystemType: 'other',
          tenantName: 'Rival Haulage',
          contactName: 'Alex Rival',
          tenantEmail: 'alex@rival.test',
          bookingType: 'delivery',
          date: day.iso,
          slot,
          expectedDurationMin: 30,
          vehicleType: 'semi',
          vehicleRegistration: 'RIV001',
          vehicleHeightM: 5.3,
          driverInductionCompleted: true,
          termsAccepted: true,
        }),
      },
    });
    expect(rival.status(), await rival.text()).toBe(201);

    await page.getByRole('button', { name: 'Submit Booking Request' }).click();

    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'No Available Bay' });
    await expect(toast).toContainText(NO_BAY_MESSAGE);
    // The grid is refreshed: the taken slot is now disabled, no longer selected, and the page says so.
    await expect(page.locator(`button[data-slot="${slot}"]`)).toBeDisabled();
    await expect(page.getByTestId('slot-cleared')).toHaveText(`The ${slot} slot is no longer available for this vehicle; choose another time.`);
    await expect(page.getByRole('button', { name: 'Submit Booking Request' })).toBeDisabled();
    await expect(page.getByRole('heading', { name: 'Booking Request Submitted!' })).toHaveCount(0);
  });

  test('the manage link from the confirmation e-mail shows the booking and cancels it', async ({ page, request, ownOrg, capture }) => {
    const { orgId } = ownOrg;
    const email = `manage+${Date.now()}@haulier.test`;
    const tsr = `TSR-MANAGE-${Date.now()}`;
    const created = await request.post('/api/public/bookings', {
      multipart: {
        data: JSON.stringify({
          orgId,
          tsrNumber: tsr,
          tenantName: 'Manage Me Pty Ltd',
          contactName: 'Morgan Manager',
          tenantEmail: email,
          date: dateInDays(6).iso,
          slot: '10:00',
          expectedDurationMin: 45,
          vehicleType: 'van',
          vehicleRegistration: 'MAN001',
          vehicleHeightM: 2.5,
          driverInductionCompleted: true,
          termsAccepted: true,
        }),
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    const mail = await latestMailTo(email);
    const link = mail.match(/https?:\/\/[^\s>]+\/book\/manage\/[A-Za-z0-9_-]+/)?.[0];
    expect(link, 'manage link in the confirmation e-mail').toBeTruthy();
    await page.goto(new URL(link!).pathname);

    await expect(page.getByRole('heading', { name: 'Manage your booking' })).toBeVisible();
    await expect(page.getByTestId('booking-status')).toHaveText('Pending review');
    const details = page.getByRole('table', { name: 'Booking details' });
    await expect(details).toContainText('Manage Me Pty Ltd');
    await expect(details).toContainText('10:00-10:45');
    await expect(details).toContainText('Van, MAN001');
    await capture('book-manage');

    await page.getByRole('button', { name: 'Move booking' }).click();
    await pickDate(page, 'New date', dateInDays(7));
    await expect(page.getByTestId('slot-grid').getByText(/compatible bay\(s\) available/)).toBeVisible();
    await capture('book-manage-move');
    const newSlot = await pickSlot(page);
    await page.getByRole('button', { name: 'Confirm new time' }).click();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Booking moved' })).toBeVisible();
    await expect(details).toContainText(`${dateInDays(7).date.getDate()} `);
    await expect(details).toContainText(`${newSlot}-`);
    await expect(page.getByTestId('booking-status')).toHaveText('Pending review');
    await expect(page.getByRole('heading', { name: 'Move booking' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await dialog.getByLabel('Reason (optional)').fill('Delivery postponed');
    await capture('book-manage-cancel-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('booking-status')).toHaveText('Cancelled');
    await expect(page.getByText('This booking has been cancelled.', { exact: false })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Move booking' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);
    await capture('book-manage-cancelled');

    await page.goto('/book/manage/not-a-real-token');
    await expect(page.getByText('This booking link is invalid or has expired')).toBeVisible();
    await capture('book-manage-invalid');
  });
});
