import type { APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD } from '../domain/constants';
import { verifySignature } from '../server/delivery/signature';
import { startTestReceiver, type TestReceiver } from '../server/delivery/test-receiver';
import { expect, signInAtLogin, signInAtOrgAdmin, test } from './fixtures';

// Settings › Integrations › Webhooks (issue 13) in the browser: a private target is refused with
// the field's message; with private targets allowed (the platform setting, turned on through the
// API for this local receiver) the admin adds an endpoint, copies the secret shown once, sends a
// test that the receiver gets and verifies with that secret, reads the delivery log (a failing
// receiver's attempt and its next retry), rotates the secret, disables and deletes — each after
// confirming.

async function setPrivateTargets(request: APIRequestContext, on: boolean) {
  const token = await request.post('/api/auth/token?grant_type=password', { data: { email: 'super@baywise.test', password: DEMO_PASSWORD } });
  expect(token.ok()).toBe(true);
  const headers = { authorization: `Bearer ${(await token.json()).access_token}` };
  const current = await request.get('/api/platform/settings', { headers });
  const { config } = await current.json();
  const saved = await request.put('/api/platform/settings', { headers, data: { ...config, allowPrivateWebhookTargets: on } });
  expect(saved.ok(), await saved.text()).toBe(true);
}

test.describe('integrations: webhooks', () => {
  // The private-targets switch is platform-wide: these tests run alone, and it is off again after each.
  // The endpoints and the TSR link are made in an organization of each test's own (ownOrg).
  test.use({ runAlone: true });
  let receiver: TestReceiver;
  test.beforeAll(async () => {
    receiver = await startTestReceiver();
  });
  test.afterEach(async ({ request }) => {
    await setPrivateTargets(request, false);
  });
  test.afterAll(async () => {
    await receiver.close();
  });

  test('an admin adds an endpoint, gets the signed test, reads the log, rotates, disables and deletes', async ({ page, request, ownOrg, capture }) => {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings?tab=integrations');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await expect(section.getByText('No webhook endpoints yet.')).toBeVisible();
    await capture('org-webhooks-empty');

    // A loopback target is refused while private targets are off (the server's SSRF guard).
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url.replace('127.0.0.1', 'localhost'));
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Yard ERP');
    await dialog.getByRole('checkbox', { name: /Gate check-in/ }).check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByText('That address is on a private, loopback or link-local network: webhooks go to public addresses only')).toBeVisible();
    // Not a URL: the form says so before asking the server.
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill('erp.example.com/hooks');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByText('Enter a full URL starting with https:// or http://')).toBeVisible();
    await capture('org-webhooks-refused', { fullPage: false });

    await setPrivateTargets(request, true);
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Copy the signing secret' });
    const secret = (await secretDialog.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await capture('org-webhooks-secret', { fullPage: false });
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await expect(secretDialog).toBeHidden();

    const row = section.getByRole('row', { name: new RegExp(receiver.url) });
    await expect(row.getByText('Active')).toBeVisible();
    await expect(row.getByText(`Yard ERP · secret …${secret.slice(-4)}`)).toBeVisible();
    await expect(row.getByText('Gate check-in')).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);

    // A test, signed with the secret just shown, arrives at the receiver; the log shows it delivered.
    await row.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Send test' }).click();
    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook!.body).type).toBe('webhook.ping');
    expect(verifySignature(secret, String(hook!.headers['baywise-signature']), hook!.body, Math.floor(Date.now() / 1000))).toBe(true);
    const log = page.getByRole('dialog', { name: 'Delivery log' });
    await expect(log.getByRole('row', { name: /Test ping/ }).getByText('Delivered')).toBeVisible();
    await expect(log.getByRole('row', { name: /Test ping/ }).getByText('200', { exact: true })).toBeVisible();

    // The receiver fails: the attempt is logged with its answer and the next retry.
    receiver.respondWith(500);
    await log.getByRole('button', { name: /^Redeliver Test ping/ }).click();
    await receiver.waitFor(2);
    const failing = log.getByRole('row', { name: /redelivery/ });
    await expect(failing.getByText('Pending')).toBeVisible();
    await expect(failing.getByText('500', { exact: true })).toBeVisible();
    await expect(failing.getByText('1 of 6')).toBeVisible();
    await capture('org-webhooks-delivery-log', { fullPage: false });
    await log.getByRole('button', { name: 'Close' }).click();
    await expect(log).toBeHidden();
    receiver.respondWith(200);

    // Rotate: asks first, then shows the new secret once.
    await row.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Rotate secret' }).click();
    const confirmRotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await confirmRotate.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await secretDialog.getByTestId('webhook-secret').textContent())!.trim();
    expect(rotated).not.toBe(secret);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await expect(row.getByText(`secret …${rotated.slice(-4)}`)).toBeVisible();

    // Disable (confirmed), then enable again.
    await row.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await page.getByRole('dialog', { name: 'Disable this endpoint?' }).getByRole('button', { name: 'Disable endpoint' }).click();
    await expect(row.getByText('Disabled')).toBeVisible();
    await capture('org-webhooks-disabled', { fullPage: false });
    await row.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Enable' }).click();
    await expect(row.getByText('Active')).toBeVisible();

    // Delete: cancel keeps it; confirming removes it and its log.
    await row.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirmDelete = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await expect(confirmDelete.getByText('its delivery log is deleted with it')).toBeVisible();
    await confirmDelete.getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await confirmDelete.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(section.getByText('No webhook endpoints yet.')).toBeVisible();
  });

  test('an admin connects ServiceNow for the TSR link; the password is never shown again; removing asks first', async ({ page, ownOrg, capture }) => {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings?tab=integrations');
    const section = page.getByRole('region', { name: 'TSR link' });
    await expect(section.getByText('No TSR system connected.')).toBeVisible();
    await section.getByRole('button', { name: 'Connect a system' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect a TSR system' });
    await dialog.getByRole('button', { name: 'Save connection' }).click();
    await expect(dialog.getByText('Enter the base URL')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill('https://93.184.215.14/');
    await dialog.getByRole('textbox', { name: 'User name' }).fill('baywise.integration');
    await dialog.locator('input[type="password"]').fill('sn-password-1');
    await capture('org-tsr-connect', { fullPage: false });
    await dialog.getByRole('button', { name: 'Save connection' }).click();
    await expect(dialog).toBeHidden();
    const row = section.getByRole('row', { name: /ServiceNow/ });
    await expect(row.getByText('https://93.184.215.14')).toBeVisible();
    await expect(row.getByText('baywise.integration')).toBeVisible();
    await expect(page.getByText('sn-password-1')).toHaveCount(0);
    await capture('org-tsr-connected', { fullPage: false });
    await row.getByRole('button', { name: 'Remove the ServiceNow connection' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this connection?' });
    await confirm.getByRole('button', { name: 'Remove connection' }).click();
    await expect(section.getByText('No TSR system connected.')).toBeVisible();
  });

  test('a dockmaster cannot open the webhooks (settings are for admins)', async ({ page }) => {
    await signInAtLogin(page, 'dock@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    await page.goto('/org/settings?tab=integrations');
    await expect(page).toHaveURL('/org/dashboard');
    await expect(page.getByRole('region', { name: 'Webhooks' })).toHaveCount(0);
  });
});
