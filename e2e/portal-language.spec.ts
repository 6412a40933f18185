import path from 'node:path';
import type { Page } from '@playwright/test';
import { addDays } from '../domain/day-notice';
import { todayIn } from '../domain/slot-grid';
import { SCREENSHOT_DIR, expect, expectNoSeriousA11yViolations, test } from './fixtures';

// The portal in the haulier's language (issue 27, decision 046): on /book/request the haulier
// switches to Polski in the header; the form's labels are Polish, the choice is remembered after a
// reload, and the manage page and the gate kiosk open in Polish too (the Polish validation messages,
// the request sent in Polish and its Polish e-mail are in haulier-self-service.spec.ts). In an organization of the test's own, at a site open
// round the clock where it is about noon now.

const SITE = 'Language Yard';
test.use({ ownOrgSetup: { sites: [{ name: SITE, hours: 'all-day', bays: [{ name: 'L-01', heightClearanceM: 4.5 }, { name: 'L-02', heightClearanceM: 4.5 }] }] } });

const languagePicker = (page: Page) => page.getByRole('combobox', { name: /^(Language|Język)$/ });

test('a haulier switches the portal to Polish: the form, the manage page and the kiosk', async ({ page, request, ownOrg, consoleErrors }) => {
  test.slow(); // three screens and three accessibility scans
  const site = ownOrg.site(SITE);
  await page.goto(`/book/request?org=${ownOrg.orgId}`);
  await expect(page.getByRole('textbox', { name: 'TSR Number', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // Signed out, the form's "anyone signed in?" question is answered without a failed request.
  const asked = await page.request.get('/api/public/haulier/me');
  expect(await asked.json()).toEqual({ signedIn: false });
  expect(consoleErrors.filter((message) => message.includes('401'))).toEqual([]);

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

  // The Polish form passes the accessibility scan. (Its validation messages, the sent request and
  // its Polish confirmation e-mail are walked in haulier-self-service.spec.ts.)
  await expectNoSeriousA11yViolations(page, 'booking form in Polish', { skipToasts: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'portal-form-pl.png'), fullPage: true });

  // A booking of this site (made through the API, in Polish): its manage page opens in Polish (the choice is this browser's).
  // Today (the kiosk finds a plate's booking of the day), three hours from now at this site where it is about noon.
  const stamp = Date.now().toString(36).toUpperCase();
  const plate = `PL${stamp.slice(-5)}`;
  const hourHere = Number(new Intl.DateTimeFormat('en-GB', { timeZone: site.timeZone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  const created = await request.post('/api/public/bookings', {
    multipart: {
      data: JSON.stringify({
        orgId: ownOrg.orgId,
        tsrNumber: `TSR-PL-${stamp}`,
        tenantName: 'Polskie Przewozy',
        contactName: 'Anna Kowalska',
        tenantEmail: `pl-${stamp.toLowerCase()}@haulier.test`,
        date: today,
        slot: `${String(Math.min(hourHere + 3, 22)).padStart(2, '0')}:00`,
        expectedDurationMin: 30,
        vehicleType: 'van',
        vehicleRegistration: plate,
        vehicleHeightM: 2.5,
        driverInductionCompleted: true,
        termsAccepted: true,
        language: 'pl',
      }),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const link = ((await created.json()) as { manageUrl: string | null }).manageUrl;
  expect(link, 'manage link of the booking').toBeTruthy();
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

  // The driver is done: the kiosk greets the next one in the organization's language (English).
  await expect(page.getByRole('heading', { name: 'Welcome — check in here' })).toBeVisible();
  await expect(languagePicker(page)).toHaveValue('en');
  // The kiosk's own picker still switches.
  await languagePicker(page).selectOption('pl');
  await expect(page.getByRole('heading', { name: 'Witamy — zarejestruj się tutaj' })).toBeVisible();
});
