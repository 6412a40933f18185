import path from 'node:path';
import type { Page } from '@playwright/test';
import { SCREENSHOT_DIR, expect, expectNoSeriousA11yViolations, test } from './fixtures';

// The portal's help and terms pages and the product page at `/` in the visitor's language (issue 27,
// decision 046): their texts are namespaces of their own (help, terms, landing), loaded with the
// page; picking a language loads that page's texts in it. Reads only the public pages (no data).

const languagePicker = (page: Page) => page.getByRole('combobox', { name: /^(Language|Język|Sprache|Langue)$/ });

test('the help page switches to Polish from the header, and the terms page opens in Polish after it', async ({ page }) => {
  await page.goto('/book/help');
  await expect(page.getByRole('heading', { name: 'Booking help', level: 1 })).toBeVisible();
  await languagePicker(page).selectOption('pl');
  await expect(page.getByRole('heading', { name: 'Pomoc w rezerwacji', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Jak działa rezerwacja' })).toBeVisible();
  await expect(page.getByText('Rezerwacji należy dokonać co najmniej 2 godziny wcześniej.').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'warunkach rezerwacji' })).toBeVisible();
  await expect(page.getByText('How booking works')).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expectNoSeriousA11yViolations(page, 'help page in Polish');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'help-pl.png'), fullPage: true });

  // The terms page (a chunk of its own) opens straight in Polish: no English shown on the way.
  await page.getByRole('link', { name: 'warunkach rezerwacji' }).click();
  await expect(page.getByRole('heading', { name: 'Regulamin i warunki rezerwacji', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: '1. Wnioski o rezerwację' })).toBeVisible();
  await expect(page.getByText('Wniosek należy złożyć co najmniej 2 godziny przed rozpoczęciem terminu.')).toBeVisible();
  await expect(page.getByText('Booking requests')).toHaveCount(0);
});

test('the terms page in French after a reload with French remembered', async ({ page }) => {
  await page.goto('/book/terms');
  await expect(page.getByRole('heading', { name: 'Booking terms and conditions', level: 1 })).toBeVisible();
  await languagePicker(page).selectOption('fr');
  await expect(page.getByRole('heading', { name: 'Conditions générales de réservation', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Conditions générales de réservation', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: '5. Annulation et report' })).toBeVisible();
  await expect(page.getByText('Une demande doit être faite au moins 2 heures avant le début du créneau.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'terms page in French');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'terms-fr.png'), fullPage: true });
});

test('the landing page at / in German, its picker in the header, the quote form too', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Every loading bay, booked and running on time' })).toBeVisible();
  await languagePicker(page).selectOption('de');
  await expect(page.getByRole('heading', { name: 'Jede Laderampe gebucht und pünktlich im Betrieb' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Gemacht für volle Rampen' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expectNoSeriousA11yViolations(page, 'landing page in German');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'landing-de.png'), fullPage: true });

  await page.getByRole('button', { name: 'Angebot anfordern' }).click();
  const dialog = page.getByRole('dialog', { name: 'Angebot anfordern' });
  await expect(dialog.getByRole('textbox', { name: 'Unternehmen' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Anfrage senden' })).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'landing-quote-de.png') });
});
