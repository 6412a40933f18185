import type { APIRequestContext, Page } from '@playwright/test';
import { createOwnOrg, suspendOwnOrg } from './own-org';
import { expect, latestMailTo, test } from './fixtures';

// Haulier self-service (issue 27, "Done when"), one walk: a haulier with bookings at two
// organizations (the test's own, and a second one made here) signs in with the link from the mail
// outbox, sees both organizations' bookings, saves a vehicle, requests a standing booking (refused
// where no tenant allows it, then requested — and the organization's admin sees it as requested),
// then switches the portal to Polish and rebooks with the saved vehicle: the form and its
// validation messages are Polish, the booking is sent and its confirmation e-mail is Polish; signed
// out, the account page asks for the e-mail again. (It took over e2e/haulier-account.spec.ts and the
// Polish form and e-mail of portal-language.spec.ts.)

/** 'YYYY-MM-DD' `days` from today (browser and test run on the same machine). */
function dateInDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function requestBooking(request: APIRequestContext, orgId: string, values: { email: string; tsrNumber: string; date: string; registration: string }) {
  const created = await request.post('/api/public/bookings', {
    multipart: {
      data: JSON.stringify({
        orgId,
        tsrNumber: values.tsrNumber,
        tenantName: 'Rolling Freight',
        contactName: 'Robin Road',
        tenantEmail: values.email,
        date: values.date,
        slot: '10:00',
        expectedDurationMin: 30,
        vehicleType: 'van',
        vehicleRegistration: values.registration,
        vehicleHeightM: 2.5,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
}

const upcomingRows = (page: Page, name = 'Upcoming') => page.getByRole('table', { name }).locator('tbody tr');
const languagePicker = (page: Page) => page.getByRole('combobox', { name: /^(Language|Język)$/ });

test('a haulier signs in, sees two organizations, requests a standing booking and rebooks with a saved vehicle in Polish', async ({ page, request, ownOrg, capture }) => {
  test.slow(); // two sign-in pages, a standing request, a booking in Polish and four screenshots
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const domain = `rolling-${stamp}.test`;
  const email = `robin@${domain}`;
  const other = await createOwnOrg(request, 'E2E Haulier Self Service Second');
  try {
    await requestBooking(request, ownOrg.orgId, { email, tsrNumber: `TSR-SELF-A-${stamp}`, date: dateInDays(5), registration: `A${stamp.slice(-5)}`.toUpperCase() });
    await requestBooking(request, other.orgId, { email, tsrNumber: `TSR-SELF-B-${stamp}`, date: dateInDays(6), registration: `B${stamp.slice(-5)}`.toUpperCase() });
    // The test's own organization lets the haulier's company (by its e-mail domain) ask for standing bookings; the second does not.
    const tenant = await request.post(`/api/orgs/${ownOrg.orgId}/tenants`, { headers: ownOrg.headers, data: { name: 'Rolling Freight', emailDomains: [domain], standingRequestsAllowed: true } });
    expect(tenant.status(), await tenant.text()).toBe(201);

    // /book → "Sign in to see your bookings" → the e-mail → "Check your e-mail" → the mailed link.
    await page.goto('/book');
    await page.getByRole('link', { name: 'Sign in to see your bookings' }).click();
    await expect(page).toHaveURL(/\/book\/account$/);
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    const mail = await latestMailTo(email, 15_000, /\/book\/account\/sign-in#token=/);
    const link = mail.match(/https?:\/\/\S+\/book\/account\/sign-in#token=[\w-]+/)![0];
    await page.goto(link);
    await expect(page).toHaveURL(/\/book\/account$/);
    await expect(page.getByRole('heading', { name: 'My bookings' })).toBeVisible();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

    // Both organizations' bookings, each with its manage link and Rebook; no standing bookings yet.
    const rows = upcomingRows(page);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(ownOrg.name);
    await expect(rows.nth(0)).toContainText('Main Yard');
    await expect(rows.nth(1)).toContainText(other.name);
    await expect(rows.nth(0).getByRole('link', { name: /^Manage booking TSR-SELF-A-/ })).toHaveAttribute('href', /\/book\/manage\//);
    await expect(page.getByText('No standing bookings yet.', { exact: false })).toBeVisible();
    // The link is spent: opening it again fails with a clear message.
    const again = await page.context().newPage();
    await again.goto(link);
    await expect(again.getByText('This sign-in link has already been used. Ask for a new one.')).toBeVisible();
    await again.close();

    // Save a vehicle on the account page.
    const registration = `SV${stamp.slice(-5)}`.toUpperCase();
    const addVehicle = page.getByRole('form', { name: 'Add a vehicle' });
    await addVehicle.getByRole('textbox', { name: 'Name (optional)' }).fill('Blue rigid');
    await addVehicle.getByRole('combobox', { name: 'Vehicle Type' }).selectOption('rigid');
    await addVehicle.getByRole('textbox', { name: 'Vehicle Registration' }).fill(registration);
    await addVehicle.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('3.6');
    await addVehicle.getByRole('button', { name: 'Save vehicle' }).click();
    await expect(page.getByRole('list', { name: 'Saved vehicles' })).toContainText(`${registration} · Blue rigid`);

    // Request a standing booking: the shared schema's messages first, then the second organization
    // refuses (no tenant lets this address ask), then the test's own takes it.
    await page.getByRole('link', { name: 'Request a standing booking' }).click();
    await expect(page).toHaveURL(/\/book\/account\/standing\/new$/);
    const form = page.getByRole('form', { name: 'Standing booking request' });
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(form.getByText('Organization is required')).toBeVisible();
    await expect(form.getByText('Choose at least one weekday')).toBeVisible();
    await expect(form.getByText('Start time is required')).toBeVisible();

    await form.getByRole('combobox', { name: 'Organization' }).selectOption({ label: other.name });
    await expect(form.getByRole('combobox', { name: 'Site' })).toHaveValue(other.sites[0]!.id);
    // The weekday chips are checkboxes: chosen with the keyboard.
    for (const day of ['Tue', 'Thu']) {
      const chip = form.getByRole('checkbox', { name: day });
      await chip.focus();
      await page.keyboard.press('Space');
      await expect(chip).toBeChecked();
    }
    await form.getByRole('textbox', { name: 'Start time' }).fill('07:00');
    await form.getByRole('spinbutton', { name: 'Duration (minutes)' }).fill('45');
    await form.getByRole('textbox', { name: 'From', exact: true }).fill(dateInDays(14));
    await form.getByRole('textbox', { name: 'TSR Number' }).fill(`TSR-WEEKLY-${stamp}`);
    await form.getByRole('textbox', { name: 'Company Name' }).fill('Rolling Freight');
    await form.getByRole('textbox', { name: 'Contact Name' }).fill('Robin Road');
    await form.getByRole('combobox', { name: 'Use a saved vehicle' }).selectOption({ label: `${registration} · Blue rigid` });
    await expect(form.getByRole('textbox', { name: 'Vehicle Registration' })).toHaveValue(registration);
    await form.getByRole('textbox', { name: 'Note for the site' }).fill('Chilled goods, rear door.');
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This organization does not take standing booking requests from your e-mail address.' })).toBeVisible();

    await form.getByRole('combobox', { name: 'Organization' }).selectOption({ label: ownOrg.name });
    await expect(form.getByRole('combobox', { name: 'Site' })).toHaveValue(ownOrg.site('Main Yard').id);
    await capture('haulier-standing-request-form');
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Requested — waiting for approval' })).toBeVisible();

    // The organization's admin sees it as a request.
    const listed = await request.get(`/api/orgs/${ownOrg.orgId}/standing-bookings`, { headers: ownOrg.headers });
    expect((await listed.json()) as unknown).toMatchObject({ items: [{ status: 'requested', requestedByHaulier: true, tsrNumber: `TSR-WEEKLY-${stamp}`, weekdays: [2, 4], startLocal: '07:00' }] });

    // Back on the account page: the request, with its status.
    await page.getByRole('link', { name: 'Back to my bookings' }).click();
    const standing = page.getByRole('table', { name: 'Standing bookings' });
    await expect(standing).toContainText(ownOrg.name);
    await expect(standing).toContainText('Tue, Thu at 07:00, 45 min');
    await expect(standing).toContainText('Requested');
    await capture('haulier-account-standing-list');

    // Rebook the first organization's booking, in Polish, with the saved vehicle.
    await upcomingRows(page).nth(0).getByRole('link', { name: /^Rebook TSR-SELF-A-/ }).click();
    await expect(page).toHaveURL(/\/book\/request\?rebook=/);
    await expect(page.getByRole('textbox', { name: 'Company Name' })).toHaveValue('Rolling Freight');
    await languagePicker(page).selectOption('pl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
    await expect(page.getByRole('heading', { name: 'Poproś o termin przy rampie' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Użyj zapisanego pojazdu' }).selectOption({ label: `${registration} · Blue rigid` });
    await expect(page.getByRole('textbox', { name: 'Numer rejestracyjny' })).toHaveValue(registration);
    await page.getByRole('textbox', { name: 'Data', exact: true }).fill(dateInDays(8));
    const slot = page.getByTestId('slot-grid').locator('button[data-slot="11:00"]');
    await expect(slot).toBeEnabled();
    await slot.click();
    // Without a reference and the ticks: the shared schema's messages, in Polish.
    const reference = page.getByRole('textbox', { name: 'Numer TSR', exact: true });
    await reference.fill('');
    await page.getByRole('button', { name: 'Wyślij wniosek o rezerwację' }).click();
    await expect(page.getByText('Numer TSR jest wymagany', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Regulamin musi zostać zaakceptowany', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('TSR Number is required')).toHaveCount(0);
    await capture('haulier-rebook-form-pl');

    await reference.fill(`TSR-SELF-PL-${stamp}`);
    await page.getByRole('checkbox', { name: 'Kierowca ukończył szkolenie wstępne obiektu' }).check();
    await page.getByRole('checkbox', { name: /Akceptuję regulamin/ }).check();
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/public/bookings'));
    await page.getByRole('button', { name: 'Wyślij wniosek o rezerwację' }).click();
    const answer = await answered;
    expect(answer.request().postData() ?? '').toContain('"language":"pl"');
    expect(answer.status(), await answer.text()).toBe(201);
    await expect(page.getByRole('heading', { name: 'Wniosek o rezerwację wysłany!' })).toBeVisible();
    const confirmation = await latestMailTo(email, 15_000, /TSR-SELF-PL-/);
    expect(confirmation).toContain('Otrzymaliśmy Twoją prośbę o rezerwację rampy');
    expect(confirmation).toContain('Co zabrać:');

    // The standing request form in Polish: its validation messages too.
    await page.goto('/book/account/standing/new');
    const formPl = page.getByRole('form', { name: 'Prośba o rezerwację stałą' });
    await formPl.getByRole('button', { name: 'Wyślij prośbę' }).click();
    await expect(formPl.getByText('Wybierz co najmniej jeden dzień tygodnia')).toBeVisible();
    await expect(formPl.getByText('Godzina rozpoczęcia jest wymagana')).toBeVisible();
    await expect(formPl.getByText('Choose at least one weekday')).toHaveCount(0);
    await capture('haulier-standing-request-form-pl');

    // The account page in Polish: three upcoming bookings, the new one with the saved vehicle; then sign out.
    await page.goto('/book/account');
    await expect(upcomingRows(page, 'Nadchodzące')).toHaveCount(3);
    await expect(page.getByRole('table', { name: 'Nadchodzące' })).toContainText(registration);
    await expect(page.getByRole('table', { name: 'Rezerwacje stałe' })).toContainText('Wysłana prośba');
    await page.getByRole('button', { name: 'Wyloguj się' }).click();
    await expect(page).toHaveURL(/\/book$/);
    // Signed out: the account page asks for the e-mail again.
    await page.goto('/book/account');
    await expect(page.getByRole('button', { name: 'Wyślij mi link do logowania' })).toBeVisible();
  } finally {
    await suspendOwnOrg(request, other);
  }
});
