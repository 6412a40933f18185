import path from 'node:path';
import type { Page } from '@playwright/test';
import { addDays } from '../domain/day-notice';
import { todayIn } from '../domain/slot-grid';
import { SCREENSHOT_DIR, expect, expectNoSeriousA11yViolations, latestMailTo, test } from './fixtures';

// The portal in the haulier's language (issue 27, decision 046): on /book/request the haulier
// switches to Polski in the header; the form's labels and the shared schema's messages are Polish,
// the request is sent with its language and its confirmation e-mail is Polish, the choice is remembered after a reload, and the manage
// page and the gate kiosk open in Polish too. In an organization of the test's own, at a site open
// round the clock where it is about noon now.

const SITE = 'Language Yard';
test.use({ ownOrgSetup: { sites: [{ name: SITE, hours: 'all-day', bays: [{ name: 'L-01', heightClearanceM: 4.5 }, { name: 'L-02', heightClearanceM: 4.5 }] }] } });

const languagePicker = (page: Page) => page.getByRole('combobox', { name: /^(Language|Język)$/ });

test('a haulier switches the portal to Polish: the form, its messages, the sent request, the manage page and the kiosk', async ({ page, request, ownOrg }) => {
  test.slow(); // four screens, three accessibility scans and a booking
  const site = ownOrg.site(SITE);
  await page.goto(`/book/request?org=${ownOrg.orgId}`);
  await expect(page.getByRole('textbox', { name: 'TSR Number', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // Every language named in itself; Polski chosen with the keyboard.
  await expect(languagePicker(page).locator('option')).toHaveText(['English', 'Deutsch', 'Polski', 'Français']);
  await languagePicker(page).selectOption('pl');
  await expect(page.getByRole('textbox', { name: 'Numer TSR', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Poproś o termin przy rampie' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');

  // Remembered after a reload.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Numer TSR', exact: true })).toBeVisible();
  await expect(languagePicker(page)).toHaveValue('pl');

  // The landing page's requirements and site cards in Polish too.
  await page.goto(`/book?org=${ownOrg.orgId}`);
  await expect(page.getByText('Ważny numer TSR')).toBeVisible();
  await expect(page.getByText('Rezerwacji trzeba dokonać najpóźniej 2 godziny przed terminem.')).toBeVisible();
  await expect(page.getByText('Strefa czasowa:').first()).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'portal-landing-pl.png'), fullPage: true });
  await page.goto(`/book/request?org=${ownOrg.orgId}`);
  await expect(page.getByRole('textbox', { name: 'Numer TSR', exact: true })).toBeVisible();

  // A day already past: the server's notice (English in the API) said in Polish.
  const today = todayIn(site.timeZone, new Date());
  await page.getByRole('textbox', { name: 'Data', exact: true }).fill(addDays(today, -1));
  await expect(page.getByTestId('slot-grid').getByText(`Ta data już minęła w obiekcie ${SITE} (dziś jest tam`)).toBeVisible();
  await expect(page.getByText(/This date has passed/)).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'portal-day-notice-pl.png'), fullPage: true });

  // A date and a slot, then Submit with the rest empty: the shared schema's messages, in Polish.
  await page.getByRole('textbox', { name: 'Data', exact: true }).fill(today);
  const grid = page.getByTestId('slot-grid');
  await expect(grid.getByText(/pasując\S* stanowisk\S* dostępn/)).toBeVisible();
  const slot = grid.locator('button[data-slot]:not([disabled])').nth(2);
  await slot.click();
  await page.getByRole('button', { name: 'Wyślij wniosek o rezerwację' }).click();
  await expect(page.getByText('Numer TSR jest wymagany', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Regulamin musi zostać zaakceptowany', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('TSR Number is required')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'booking form in Polish', { skipToasts: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'portal-form-pl.png'), fullPage: true });

  // Filled in: the request carries its language, the confirmation is Polish.
  const stamp = Date.now().toString(36).toUpperCase();
  await page.getByRole('textbox', { name: 'Numer TSR', exact: true }).fill(`TSR-PL-${stamp}`);
  await page.getByRole('textbox', { name: 'Nazwa firmy' }).fill('Polskie Przewozy');
  await page.getByRole('textbox', { name: 'Osoba kontaktowa' }).fill('Anna Kowalska');
  const email = `pl-${stamp.toLowerCase()}@haulier.test`;
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('combobox', { name: 'Typ pojazdu' }).selectOption('van');
  const plate = `PL${stamp.slice(-5)}`;
  await page.getByRole('textbox', { name: 'Numer rejestracyjny' }).fill(plate);
  await page.getByRole('spinbutton', { name: 'Wysokość pojazdu (m)' }).fill('2.5');
  await page.getByRole('checkbox', { name: 'Kierowca ukończył szkolenie wstępne obiektu' }).check();
  await page.getByRole('checkbox', { name: /Akceptuję regulamin/ }).check();
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/public/bookings'));
  await page.getByRole('button', { name: 'Wyślij wniosek o rezerwację' }).click();
  const answer = await answered;
  expect(answer.request().postData() ?? '').toContain('"language":"pl"');
  expect(answer.status(), await answer.text()).toBe(201);
  await expect(page.getByRole('heading', { name: 'Wniosek o rezerwację wysłany!' })).toBeVisible();

  // The confirmation e-mail is in the language the booking was made in, and its manage link opens
  // in Polish (the choice is this browser's).
  const mail = await latestMailTo(email, 15_000, /Otrzymali/);
  expect(mail).toContain('Otrzymaliśmy Twoją prośbę o rezerwację rampy');
  expect(mail).toContain('Co zabrać:');
  const link = mail.match(/https?:\/\/[^\s>]+\/book\/manage\/[A-Za-z0-9_-]+/)?.[0];
  expect(link, 'manage link in the e-mail').toBeTruthy();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(new URL(link!).pathname);
  await expect(page.getByRole('heading', { name: 'Zarządzaj rezerwacją' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Szczegóły rezerwacji' })).toContainText('Polskie Przewozy');
  await expectNoSeriousA11yViolations(page, 'manage page in Polish');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'portal-manage-pl.png'), fullPage: true });

  // The gate kiosk in Polish: registered by the admin, opened with its setup link.
  const registered = await request.post(`/api/orgs/${ownOrg.orgId}/settings/kiosk-devices`, { headers: ownOrg.headers, data: { siteId: site.id, name: 'Language tablet' } });
  expect(registered.status(), await registered.text()).toBe(201);
  const { secret } = (await registered.json()) as { secret: string };
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(`/kiosk#token=${secret}`);
  await expect(page.getByRole('heading', { name: 'Witamy — zarejestruj się tutaj' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Zeskanuj kod QR' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'kiosk in Polish');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'kiosk-start-pl.png'), fullPage: true });

  // The booking is still pending: the kiosk's refusal (English in the API) in Polish.
  await page.getByRole('button', { name: 'Wpisz numer rejestracyjny' }).click();
  await page.getByRole('textbox', { name: 'Numer rejestracyjny' }).fill(plate);
  await page.getByRole('button', { name: 'Zarejestruj się' }).click();
  await expect(page.getByTestId('kiosk-refused')).toHaveText('Nie zarejestrowano');
  await expect(page.getByText('Twoja rezerwacja nie została jeszcze zatwierdzona.')).toBeVisible();
  await expect(page.getByText('Zgłoś się do portierni.')).toBeVisible();
  await expect(page.getByText(/has not been approved/)).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'kiosk-refused-pl.png'), fullPage: true });
  await page.getByRole('button', { name: 'Zacznij od nowa' }).click();

  // Back to English from the kiosk's own picker.
  await languagePicker(page).selectOption('en');
  await expect(page.getByRole('heading', { name: 'Welcome — check in here' })).toBeVisible();
});
