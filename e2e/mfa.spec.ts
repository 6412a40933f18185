import type { APIRequestContext, Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { DEMO_PASSWORD } from '../domain/constants';
import { expect, test } from './fixtures';

// Two-factor sign-in in the browser (issue 12, decision 018): a platform user enrols an
// authenticator app (the code is computed here from the key the page shows), signs out, signs in
// with a code, then with a recovery code, and turns it off again. It is the demo support agent, whom
// no other spec signs in as (the super admin is shared by every platform spec, in parallel too);
// whatever happens, two-factor sign-in is off again when this spec ends.

const EMAIL = 'support@baywise.test';
const STEP_MS = 30_000;

/** The code of the app for `at`. */
const codeAt = (secret: string, at: number) => OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at });
/**
 * A code that has not been used yet: the next step's (the server accepts one step of drift, and
 * refuses a step already used, so the current one may be spent already).
 */
const freshCode = (secret: string) => codeAt(secret, Date.now() + STEP_MS);

async function passwordStep(page: Page) {
  await page.goto('/superadmin');
  await page.getByLabel('Administrator Email').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/superadmin');
}

/** Turns two-factor sign-in off through the API with two recovery codes (one to sign in, one to turn it off). */
async function turnOffWithRecoveryCodes(request: APIRequestContext, codes: string[]) {
  const [forSignIn, forDisable] = codes;
  if (!forSignIn || !forDisable) return;
  const first = await (await request.post('/api/auth/token?grant_type=password', { data: { email: EMAIL, password: DEMO_PASSWORD } })).json();
  if (!first.mfa_required) return; // already off
  const session = await (await request.post('/api/auth/token?grant_type=mfa', { data: { challenge_token: first.challenge_token, recovery_code: forSignIn } })).json();
  const off = await request.post('/api/auth/mfa/disable', { headers: { authorization: `Bearer ${session.access_token}` }, data: { recoveryCode: forDisable } });
  expect(off.ok(), await off.text()).toBeTruthy();
}

test.describe('two-factor sign-in', () => {
  test.setTimeout(120_000);

  test('enrol with the key shown, sign in with a code, then with a recovery code, and turn it off', async ({ page, capture }) => {
    let recoveryCodes: string[] = [];
    let isOff = false;
    try {
      await passwordStep(page);
      await expect(page).toHaveURL('/superadmin/dashboard');
      await page.getByRole('link', { name: 'Security' }).click();
      await expect(page).toHaveURL('/superadmin/security');
      await expect(page.getByRole('heading', { name: 'Account security', level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();

      // The QR code (drawn by the server) and the key to type.
      await expect(page.getByRole('img', { name: 'QR code for setting up two-factor sign-in' })).toBeVisible();
      const secret = (await page.getByTestId('mfa-secret').getAttribute('data-secret'))!;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await capture('mfa-enrol', { fullPage: false });
      // A wrong code: a clear message, nothing changes.
      const codeField = page.getByRole('textbox', { name: 'Authentication code' });
      await codeField.fill(codeAt(secret, Date.now() - 10 * STEP_MS));
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await expect(page.getByText('That code is not valid. Enter the current code from your authenticator app.')).toBeVisible();
      await codeField.fill(codeAt(secret, Date.now()));
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();

      // Ten recovery codes, shown once.
      const list = page.getByTestId('recovery-codes');
      await expect(list.getByRole('listitem')).toHaveCount(10);
      recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
      for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
      await expect(page.getByRole('button', { name: 'Download' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Copy codes' })).toBeVisible();
      await capture('mfa-recovery-codes');
      await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
      await expect(page.getByTestId('recovery-codes-left')).toHaveText('10 recovery codes left');

      // Signing in now asks for a code.
      await signOut(page);
      await passwordStep(page);
      await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
      await expect(page).toHaveURL('/superadmin');
      await capture('mfa-code-step', { fullPage: false });
      await page.getByRole('textbox', { name: 'Authentication code' }).fill(codeAt(secret, Date.now() - 10 * STEP_MS));
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByText('That code is not valid. Enter the current code from your authenticator app.')).toBeVisible();
      await page.getByRole('textbox', { name: 'Authentication code' }).fill(freshCode(secret));
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page).toHaveURL('/superadmin/dashboard');

      // Then with a recovery code, at the admin sign-in.
      await signOut(page);
      await page.goto('/login');
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!.toUpperCase());
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page).toHaveURL('/superadmin/dashboard');

      // A used recovery code does not work twice; nine are left. Turn it off with another one.
      await page.goto('/superadmin/security');
      await expect(page.getByTestId('recovery-codes-left')).toHaveText('9 recovery codes left');
      await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Turn off two-factor sign-in?' });
      await dialog.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await dialog.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
      await dialog.getByRole('button', { name: 'Turn off' }).click();
      await expect(dialog.getByText('That recovery code is not valid or has already been used.')).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[1]!);
      await dialog.getByRole('button', { name: 'Turn off' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeVisible();
      isOff = true;
    } finally {
      if (!isOff) await turnOffWithRecoveryCodes(page.request, recoveryCodes.slice(2));
    }
  });
});
