import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';

// The developer portal (/developers, issue 24) and the two Swagger UIs (/api/docs, /api/ssc/docs):
// each renders in Chromium from our own files with no console error (a CSP refusal is one).

const SHOTS = path.resolve('test-results/screenshots');

test.describe('developer portal', () => {
  test('is linked from the landing page and shows the reference, the signing snippets and the mapping', async ({ page, consoleErrors, capture }) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto('/');
    await page.getByRole('link', { name: 'Developers' }).click();
    await expect(page).toHaveURL(/\/developers$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Developer portal' })).toBeVisible();
    for (const heading of ['Get a key', 'Rate limits and idempotency', 'Status codes and error kinds', 'Webhook events and signing', 'API reference', 'Field mapping']) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    }
    await expect(page.getByRole('table', { name: 'Scopes' }).getByText('appointments:schedule')).toBeVisible();
    for (const language of ['Verifying (Node.js)', 'Verifying (Python)', 'Verifying (C#)']) await expect(page.getByRole('heading', { name: language })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'SSC appointment standard v1.1 → Baywise' })).toBeVisible();
    // The operations, read from /api/ssc/openapi.json, with their real codes.
    const operations = page.getByRole('table', { name: 'Operations' });
    await expect(operations.getByRole('row')).toHaveCount(11);
    await expect(operations.getByRole('row').filter({ hasText: 'POST /api/ssc/webhooks/v1/subscriptions' })).toContainText('201, 400');
    await expect(operations.getByRole('row').filter({ hasText: 'delete-subscription' })).toContainText('204, 400');
    await expect(page.getByRole('link', { name: 'Swagger UI at /api/ssc/docs' })).toHaveAttribute('href', '/api/ssc/docs');
    await capture('developers');
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  test('/api/docs and /api/ssc/docs load without a console error and show the SSC answers', async ({ page, consoleErrors }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await page.goto('/api/docs');
    await expect(page.locator('.swagger-ui .info .title')).toContainText('Baywise API', { timeout: 20_000 });
    const schedule = page.locator('.opblock', { hasText: '/api/ssc/appointments/v1/schedule-appointment' });
    await schedule.locator('.opblock-summary').click();
    for (const code of ['200', '400', '401', '403', '404', '429']) await expect(schedule.locator(`.response[data-code="${code}"]`)).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, 'api-docs.png') });

    await page.goto('/api/ssc/docs');
    await expect(page.locator('.swagger-ui .info .title')).toContainText('Baywise SSC appointments API', { timeout: 20_000 });
    const subscribe = page.locator('.opblock-post', { hasText: '/webhooks/v1/subscriptions' }).first();
    await subscribe.locator('.opblock-summary').click();
    await expect(subscribe.locator('.response[data-code="201"]')).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, 'api-ssc-docs.png') });
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.goto('/developers');
  });
});
