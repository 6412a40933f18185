import fs from 'node:fs';
import type { Download, Locator, Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import {
  NO_SHOW_COLUMNS,
  PUNCTUALITY_COLUMNS,
  REPORT_MESSAGES,
  UTILISATION_COLUMNS,
  VOLUME_COLUMNS,
  resolveReportRange,
  type DwellReport,
  type NoShowReport,
  type PunctualityReport,
  type ReportKind,
  type ReportOptions,
  type ReportRange,
  type UtilisationReport,
  type VolumeReport,
} from '../domain/reports';
import { chooseOption, expect, signInAtLogin, test } from './fixtures';

// The reports page (issue 11, /org/reports) over the demo data: every report draws its figures
// (the API's, for the same range and site), the range and site filters change them, and each
// table downloads as the CSV the server writes. Nothing here changes shared data.

type Reports = { utilisation: UtilisationReport; punctuality: PunctualityReport; dwell: DwellReport; 'no-shows': NoShowReport; volume: VolumeReport };

/** The signed-in page's bearer token, to ask the API what the screen should show. */
async function bearer(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').access_token as string, STORAGE_KEYS.session);
  return { authorization: `Bearer ${token}` };
}

async function acmeId(page: Page): Promise<string> {
  const orgs = (await (await page.request.get('/api/public/organizations')).json()) as Array<{ id: string; name: string }>;
  return orgs.find((o) => o.name === 'Acme Logistics')!.id;
}

async function fromApi<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: await bearer(page) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

function reportFromApi<K extends ReportKind>(page: Page, orgId: string, kind: K, range: ReportRange, siteId?: string): Promise<Reports[K]> {
  const query = new URLSearchParams({ ...range, ...(siteId ? { siteId } : {}) });
  return fromApi<Reports[K]>(page, `/api/orgs/${orgId}/reports/${kind}?${query}`);
}

const share = (rate: number | null) => (rate === null ? '—' : `${Number((rate * 100).toFixed(1))}%`);
const count = (n: number) => n.toLocaleString('en-US');

const stat = (page: Page, report: string, label: string): Locator => page.getByTestId(`${report}-stats`).locator(`[data-stat="${label}"]`);
const filters = (page: Page) => page.getByRole('search', { name: 'Report filters' });

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** The downloaded file as CSV lines (without the byte-order mark and the final line break). */
async function csvLines(download: Download): Promise<string[]> {
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text.slice(1).replace(/\r\n$/, '').split('\r\n');
}

/** Signs the Acme admin in and opens the reports from the navigation: the default view, all sites, last 30 days. */
async function openReports(page: Page) {
  await signInAtLogin(page, 'admin@acme.test');
  await expect(page).toHaveURL('/org/dashboard');
  await page.getByRole('link', { name: 'Reports' }).first().click();
  await expect(page).toHaveURL('/org/reports');
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  const orgId = await acmeId(page);
  const options = await fromApi<ReportOptions>(page, `/api/orgs/${orgId}/reports`);
  expect(options.allSitesAllowed).toBe(true);
  // The demo sites first; sites other specs made and deactivated follow (their history is reported).
  expect(options.sites.map((s) => s.name).slice(0, 2)).toEqual(['North Terminal', 'South Terminal']);
  await expect(filters(page).getByLabel('Site')).toHaveValue('');
  await expect(page.getByText('Acme Logistics · All sites ·')).toBeVisible();
  return { orgId, options, last30: resolveReportRange('last_30_days', options.today)! };
}

test.describe('reports', () => {
  test('bay utilisation, punctuality and dwell chart the demo data; their tables download as CSV', async ({ page, capture }) => {
    test.slow(); // a screenshot and an accessibility scan per report
    const { orgId, last30 } = await openReports(page);

    // Bay utilisation (the first tab): the API's shares, a heat map cell per bay and day, a line per site.
    const utilisation = await reportFromApi(page, orgId, 'utilisation', last30);
    expect(utilisation.total.bookedMinutes).toBeGreaterThan(0);
    expect(utilisation.total.occupiedMinutes).toBeGreaterThan(0);
    await expect(page.getByRole('tab', { name: 'Bay utilisation' })).toHaveAttribute('aria-selected', 'true');
    await expect(stat(page, 'utilisation', 'Booked')).toHaveText(`Booked${share(utilisation.total.bookedRate)}`);
    const heat = page.getByTestId('utilisation-heatmap');
    await expect(heat.locator('tbody tr')).toHaveCount(utilisation.bays.length);
    await expect(heat.locator('tbody tr').first().locator('td')).toHaveCount(utilisation.range.days);
    expect(await heat.locator('td[data-description]:not([data-zero])').count()).toBeGreaterThan(0);
    await expect(page.getByTestId('utilisation-line').locator('.recharts-line')).toHaveCount(utilisation.sites.length);
    await expect(page.getByTestId('utilisation-line').getByText('North Terminal')).toBeVisible();
    const bayTable = page.getByTestId('utilisation-table');
    await expect(bayTable.locator('thead th')).toHaveText(UTILISATION_COLUMNS.map((c) => c.header));
    await expect(bayTable.locator('tbody tr')).toHaveCount(10);
    await page.getByRole('button', { name: `Show all ${utilisation.bays.length} rows` }).click();
    await expect(bayTable.locator('tbody tr')).toHaveCount(utilisation.bays.length);
    await capture('org-reports-utilisation');

    // Its CSV: the same header and one line per bay, named after the range.
    const [utilisationCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(utilisationCsv.suggestedFilename()).toBe(`baywise-utilisation-${last30.from}-to-${last30.to}.csv`);
    const utilisationLines = await csvLines(utilisationCsv);
    expect(utilisationLines[0]).toBe(UTILISATION_COLUMNS.map((c) => c.header).join(','));
    expect(utilisationLines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(utilisation.bays.map((b) => `${b.siteName},${b.bayName}`));

    // Punctuality: shares per tenant, the arrivals the API counts.
    const punctuality = await reportFromApi(page, orgId, 'punctuality', last30);
    expect(punctuality.total.arrivals).toBeGreaterThan(0);
    await openTab(page, 'Punctuality');
    await expect(stat(page, 'punctuality', 'Arrivals')).toHaveText(`Arrivals${count(punctuality.total.arrivals)}`);
    await expect(stat(page, 'punctuality', 'On time')).toHaveText(`On time${share(punctuality.total.onTimeRate)}`);
    const tenantRows = punctuality.rows.filter((r) => r.dimension === 'tenant');
    await expect(page.getByTestId('punctuality-chart').locator('.recharts-bar-rectangle')).not.toHaveCount(0);
    await expect(page.getByTestId('punctuality-chart').getByText('On time', { exact: true })).toBeVisible();
    // The demo data has early and late arrivals (server/db/demo-data.ts): the distribution is drawn.
    expect(punctuality.total.late).toBeGreaterThan(0);
    await expect(page.getByTestId('punctuality-late-chart').locator('.recharts-bar-rectangle')).not.toHaveCount(0);
    await expect(page.getByTestId('punctuality-table').locator('tbody tr')).toHaveCount(Math.min(10, tenantRows.length));
    await expect(page.getByTestId('punctuality-table').locator('thead th').first()).toHaveText('Tenant');
    await capture('org-reports-punctuality');

    // Its CSV is the table on screen: one grouping (tenants), every column of the contract.
    const [punctualityCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const punctualityLines = await csvLines(punctualityCsv);
    expect(punctualityLines[0]).toBe(PUNCTUALITY_COLUMNS.map((c) => c.header).join(','));
    expect(punctualityLines).toHaveLength(tenantRows.length + 1);
    for (const [i, row] of tenantRows.entries()) expect(punctualityLines[i + 1]!.startsWith(`Tenant,${row.label},${row.arrivals},`)).toBe(true);

    // Grouping by vehicle type changes the chart and the table, and is kept in the address.
    await page.getByRole('radiogroup', { name: 'Group by' }).getByText('Vehicle type').click();
    await expect(page).toHaveURL(/groupBy=vehicle_type/);
    await expect(page.getByTestId('punctuality-table').locator('thead th').first()).toHaveText('Vehicle type');
    const vehicleRows = punctuality.rows.filter((r) => r.dimension === 'vehicle_type');
    await expect(page.getByTestId('punctuality-table').locator('tbody th')).toHaveText(vehicleRows.slice(0, 10).map((r) => r.label));

    // Dwell and turn time: medians from the API, bars per vehicle type (the grouping chosen stays).
    const dwell = await reportFromApi(page, orgId, 'dwell', last30);
    expect(dwell.total.visits).toBeGreaterThan(0);
    expect(dwell.total.gateWait.medianMinutes).toBeGreaterThan(0);
    await openTab(page, 'Dwell and turn time');
    await expect(stat(page, 'dwell', 'Visits')).toHaveText(`Visits${count(dwell.total.visits)}`);
    await expect(page.getByTestId('dwell-chart').locator('.recharts-bar-rectangle')).not.toHaveCount(0);
    await page.getByRole('radiogroup', { name: 'Measure' }).getByText('At bay').click();
    await expect(page.getByTestId('dwell-chart').getByRole('heading')).toHaveText('At bay by vehicle type: median, 90th percentile and longest');
    await expect(page.getByTestId('dwell-table').locator('tbody th')).toHaveText(dwell.rows.filter((r) => r.dimension === 'vehicle_type').slice(0, 10).map((r) => r.label));
    await capture('org-reports-dwell');

  });

  test('no-shows and volume chart the demo data; the range and site filters change the figures', async ({ page, capture }) => {
    test.slow(); // a screenshot and an accessibility scan per report
    const { orgId, options, last30 } = await openReports(page);
    const last7 = resolveReportRange('last_7_days', options.today)!;
    const north = options.sites.find((s) => s.name === 'North Terminal')!;

    // No-shows and cancellations: both happen in the demo's month, with a daily trend.
    const noShows = await reportFromApi(page, orgId, 'no-shows', last30);
    expect(noShows.total.noShows).toBeGreaterThan(0);
    expect(noShows.total.cancellations).toBeGreaterThan(0);
    await openTab(page, 'No-shows and cancellations');
    await expect(stat(page, 'no-shows', 'No-shows')).toHaveText(`No-shows${count(noShows.total.noShows)} (${share(noShows.total.noShowRate)})`);
    await expect(page.getByTestId('no-shows-trend').locator('.recharts-line')).toHaveCount(2);
    await expect(page.getByTestId('no-shows-chart').locator('.recharts-bar-rectangle')).not.toHaveCount(0);
    const [noShowCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const noShowLines = await csvLines(noShowCsv);
    expect(noShowLines[0]).toBe(NO_SHOW_COLUMNS.map((c) => c.header).join(','));
    expect(noShowLines.slice(1).map((l) => l.split(',')[0])).toEqual(noShows.rows.filter((r) => r.dimension === 'tenant').map(() => 'Tenant'));
    await capture('org-reports-no-shows');

    // Volume: bookings per day, the weekday × hour heat map, totals by type and source.
    const volume30 = await reportFromApi(page, orgId, 'volume', last30);
    expect(volume30.total.bookings).toBeGreaterThan(0);
    // The demo bookings came from the portal, the admin and the gate.
    for (const source of ['portal', 'admin', 'gate'] as const) expect(volume30.total.bySource[source], source).toBeGreaterThan(0);
    // The tabs work from the keyboard: arrow keys move between reports.
    await page.getByRole('tab', { name: 'No-shows and cancellations' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Volume' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Volume' })).toBeFocused();
    await expect(page).toHaveURL(/report=volume/);
    await expect(stat(page, 'volume', 'Bookings')).toHaveText(`Bookings${count(volume30.total.bookings)}`);
    await expect(page.getByTestId('volume-per-day').locator('.recharts-bar-rectangle')).not.toHaveCount(0);
    const hours = page.getByTestId('volume-heatmap');
    await expect(hours.locator('tbody tr')).toHaveCount(7);
    const busiest = Math.max(...volume30.weekdayHours.map((c) => c.bookings));
    const busiestCell = hours.locator('td').filter({ hasText: new RegExp(`^${busiest}`) }).first();
    await expect(busiestCell).toBeVisible();
    // Hovering a cell shows its figures in words.
    await busiestCell.hover();
    await expect(page.locator('.mantine-TooltipFloating-tooltip')).toHaveText(new RegExp(`^\\w+day \\d\\d:00: ${busiest} bookings?$`));
    // Hovering a day's bar shows its counts by booking type (a drawn bar: a type with no bookings
    // that day leaves an empty rectangle group, which cannot be hovered).
    await page.getByTestId('volume-per-day').locator('.recharts-bar-rectangle:has(path)').last().hover();
    await expect(page.getByTestId('volume-per-day').locator('.recharts-tooltip-wrapper')).toContainText('Delivery');
    await expect(page.getByTestId('volume-totals').locator('.recharts-bar-rectangle')).not.toHaveCount(0);
    await capture('org-reports-volume');

    // The range: the last 7 days are fewer bookings, the API's count for them.
    await filters(page).getByText('Last 7 days', { exact: true }).click();
    await expect(page).toHaveURL(/range=last_7_days/);
    const volume7 = await reportFromApi(page, orgId, 'volume', last7);
    expect(volume7.total.bookings).toBeLessThan(volume30.total.bookings);
    await expect(stat(page, 'volume', 'Bookings')).toHaveText(`Bookings${count(volume7.total.bookings)}`);
    await expect(page.getByTestId('volume-table').locator('tbody tr')).toHaveCount(7);

    // The site: North Terminal alone, fewer again.
    await filters(page).getByLabel('Site').selectOption({ label: 'North Terminal' });
    await expect(page).toHaveURL(new RegExp(`site=${north.id}`));
    await expect(page.getByText('Acme Logistics · North Terminal ·')).toBeVisible();
    const north7 = await reportFromApi(page, orgId, 'volume', resolveReportRange('last_7_days', north.today)!, north.id);
    expect(north7.total.bookings).toBeLessThan(volume7.total.bookings);
    await expect(stat(page, 'volume', 'Bookings')).toHaveText(`Bookings${count(north7.total.bookings)}`);

    // Its CSV: one line per day of the 7, the API's counts.
    const [volumeCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const volumeLines = await csvLines(volumeCsv);
    expect(volumeLines[0]).toBe(VOLUME_COLUMNS.map((c) => c.header).join(','));
    expect(volumeLines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(north7.days.map((d) => `${d.date},${d.bookings}`));

    // The filters live in the address: a reload shows the same report, range and site.
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Volume' })).toHaveAttribute('aria-selected', 'true');
    await expect(filters(page).getByLabel('Site')).toHaveValue(north.id);
    await expect(stat(page, 'volume', 'Bookings')).toHaveText(`Bookings${count(north7.total.bookings)}`);
  });

  test('a custom range: the contract’s messages for a bad one, with nothing asked; figures for a good one', async ({ page }) => {
    await signInAtLogin(page, 'admin@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    const asked: string[] = [];
    page.on('request', (r) => {
      if (/\/reports\/[a-z-]+(\.csv)?\?/.test(r.url())) asked.push(r.url());
    });

    await page.goto('/org/reports?report=volume&range=custom&from=2026-03-10&to=2026-03-01');
    await expect(page.getByRole('tab', { name: 'Volume' })).toHaveAttribute('aria-selected', 'true');
    await expect(filters(page).getByText(REPORT_MESSAGES.endBeforeStart)).toBeVisible();
    await expect(page.getByTestId('report-volume').getByText('Choose a valid date range')).toBeVisible();

    await filters(page).getByLabel('From', { exact: true }).fill('2024-01-01');
    await expect(filters(page).getByText(REPORT_MESSAGES.rangeTooLong)).toBeVisible();
    expect(asked).toEqual([]);

    // Switching to custom starts from the range on screen; a good range is asked for.
    const orgId = await acmeId(page);
    const options = await fromApi<ReportOptions>(page, `/api/orgs/${orgId}/reports`);
    await page.goto('/org/reports?report=volume&range=last_7_days');
    await filters(page).getByText('Custom range', { exact: true }).click();
    const last7 = resolveReportRange('last_7_days', options.today)!;
    await expect(filters(page).getByLabel('From', { exact: true })).toHaveValue(last7.from);
    await expect(filters(page).getByLabel('To', { exact: true })).toHaveValue(last7.to);
    const from = resolveReportRange('last_30_days', options.today)!.from;
    await filters(page).getByLabel('From', { exact: true }).fill(from);
    await expect(page).toHaveURL(new RegExp(`from=${from}`));
    const volume = await reportFromApi(page, orgId, 'volume', { from, to: last7.to });
    await expect(stat(page, 'volume', 'Bookings')).toHaveText(`Bookings${count(volume.total.bookings)}`);
  });

  test('loading, then the server’s message and Try again when a report fails', async ({ page }) => {
    await signInAtLogin(page, 'admin@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let failing = true;
    await page.route(/\/reports\/dwell\?/, async (route) => {
      await held;
      if (failing) await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unavailable', message: 'The reports are busy, try again shortly' } }) });
      else await route.continue();
    });
    await page.goto('/org/reports?report=dwell');
    await expect(page.getByTestId('report-dwell').getByLabel('Loading dwell and turn time')).toBeVisible();
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load this report' });
    await expect(alert).toContainText('The reports are busy, try again shortly');
    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(alert).toBeHidden();
    await expect(page.getByTestId('dwell-stats')).toBeVisible();
  });

  test('a dockmaster sees one site’s reports at a time', async ({ page }) => {
    await signInAtLogin(page, 'dock@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    await page.goto('/org/reports?site=all');
    // "All sites" is for organization admins: the first site is shown instead.
    await expect(page.getByText(/^Acme Logistics · North Terminal ·/)).toBeVisible({ timeout: 20_000 });
    const site = filters(page).getByLabel('Site');
    await expect(site.locator('option').nth(0)).toHaveText('North Terminal');
    await expect(site.locator('option').nth(1)).toHaveText('South Terminal');
    await expect(site.locator('option', { hasText: 'All sites' })).toHaveCount(0);
    await expect(site).not.toHaveValue('');
    await expect(stat(page, 'utilisation', 'Booked')).toBeVisible();
    await expect(page.getByTestId('utilisation-heatmap').locator('tbody tr')).toHaveCount(12);
  });

  test('a dockmaster signed in at the dock sees the reports of that site only', async ({ page }) => {
    await page.goto('/dockmaster');
    await chooseOption(page, 'Site', 'South Terminal — Acme Logistics');
    await page.getByLabel('Employee ID').fill('D1001');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Access Dock Operations' }).click();
    await expect(page).toHaveURL('/dockmaster/dashboard');
    await page.goto('/org/reports?report=utilisation');
    const site = filters(page).getByLabel('Site');
    await expect(site).toBeDisabled();
    await expect(site.locator('option:checked')).toHaveText('South Terminal');
    await expect(filters(page).getByText('The site you signed in at')).toBeVisible();
    await expect(page.getByTestId('utilisation-heatmap').locator('tbody tr')).toHaveCount(8);
    await expect(page.getByTestId('utilisation-heatmap').locator('tbody th').first()).toHaveText('S-01');
  });

  test('tablet layout', async ({ page, capture }) => {
    test.slow(); // three screenshots, each with an accessibility scan
    await page.setViewportSize({ width: 820, height: 1180 });
    await signInAtLogin(page, 'admin@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    for (const [report, testId] of [
      ['utilisation', 'utilisation-stats'],
      ['punctuality', 'punctuality-stats'],
      ['volume', 'volume-stats'],
    ] as const) {
      await page.goto(`/org/reports?report=${report}`);
      await expect(page.getByTestId(testId)).toBeVisible();
      // Wide tables and heat maps scroll inside their own frame; the page itself never does.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await capture(`org-reports-${report}-tablet`);
    }
  });
});
