import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../domain/constants';
import { DATA_DIR, latestMailTo } from './mail';
import { createOwnOrg, suspendOwnOrg, type OwnOrg, type OwnOrgSetup } from './own-org';
import { RunLock } from './run-lock';

export { expect, latestMailTo };

export const SCREENSHOT_DIR = path.join(import.meta.dirname, 'screenshots');

/** The run's lock (e2e/run-lock.ts), in the run's data directory: the server start empties it. */
const runLock = new RunLock(path.join(DATA_DIR, 'e2e-locks'));

/** Waits until finite CSS animations and transitions are done (spinners run forever; skip them). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}

/** Runs axe on the page and fails on any serious or critical violation, listing each one. */
export async function expectNoSeriousA11yViolations(page: Page, label: string, options: { skipToasts?: boolean } = {}): Promise<void> {
  await settle(page);
  const axe = new AxeBuilder({ page });
  // A toast that starts fading out while axe runs reads as near-white text; screens that show one on
  // purpose check it through capture(), which keeps toasts in the scan.
  if (options.skipToasts) axe.exclude('.mantine-Notifications-root');
  const results = await axe.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').join(' ')}`)
          .join('\n'),
    )
    .join('\n');
  expect(serious, `Accessibility violations on ${label} (${page.url()}):\n${report}`).toEqual([]);
}

type Options = {
  /**
   * The test reads or changes what is platform-wide (every organization's figures or lists, the
   * platform settings, the portal's list of every site): it runs while no other test does.
   * `test.use({ runAlone: true })` in the spec or a describe block.
   */
  runAlone: boolean;
  /** What `ownOrg` is made with: `test.use({ ownOrgSetup: { … } })`. */
  ownOrgSetup: OwnOrgSetup;
};

type Fixtures = {
  /** Holds the run's lock for the test: alone (runAlone) or alongside the other tests. */
  runLock: void;
  /**
   * An organization of this test's own (e2e/own-org.ts), made before the test and suspended after
   * it: a test that changes data changes it there, never in the demo organizations.
   */
  ownOrg: OwnOrg;
  /** Scans the current page with axe (0 serious/critical violations). */
  checkA11y: (label?: string) => Promise<void>;
  /** Lets the page settle, scans it with axe and saves e2e/screenshots/<name>.png. */
  capture: (name: string, options?: { fullPage?: boolean }) => Promise<void>;
  /** Messages the page logged with console.error. */
  consoleErrors: string[];
};

/** 'org-blackouts.spec.ts' → 'E2E Org Blackouts': the own organization's name says whose it is. */
function labelOf(file: string): string {
  const words = path.basename(file).replace(/\.spec\.ts$/, '').split('-');
  return `E2E ${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ')}`;
}

export const test = base.extend<Fixtures & Options>({
  runAlone: [false, { option: true }],
  ownOrgSetup: [{}, { option: true }],
  // Set up before any other fixture of the test (auto) and torn down after them all; waiting for
  // the lock has a budget of its own, not the test's.
  runLock: [
    async ({ runAlone }, use) => {
      const release = await (runAlone ? runLock.exclusive() : runLock.shared());
      try {
        await use();
      } finally {
        release();
      }
    },
    { auto: true, timeout: 600_000 },
  ],
  ownOrg: [
    async ({ request, ownOrgSetup }, use, testInfo) => {
      const org = await createOwnOrg(request, labelOf(testInfo.file), ownOrgSetup);
      await use(org);
      await suspendOwnOrg(request, org);
    },
    { timeout: 120_000 },
  ],
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await use(errors);
  },
  checkA11y: async ({ page }, use) => {
    await use((label) => expectNoSeriousA11yViolations(page, label ?? page.url()));
  },
  capture: async ({ page }, use) => {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await use(async (name, options) => {
      await expectNoSeriousA11yViolations(page, name);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: options?.fullPage ?? true });
    });
  },
  // Every test also scans the page it ends on, so no visited screen goes unchecked.
  page: async ({ page }, use, testInfo) => {
    await use(page);
    if (testInfo.status === testInfo.expectedStatus && testInfo.expectedStatus === 'passed' && page.url().startsWith('http')) {
      await expectNoSeriousA11yViolations(page, `final page of "${testInfo.title}"`, { skipToasts: true });
    }
  },
});

/** Signs in through the admin sign-in screen (/login). */
export async function signInAtLogin(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Picks an option of a Mantine Select by its label. */
export async function chooseOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Signs in through the organization admin login (/orgadmin). */
export async function signInAtOrgAdmin(page: Page, organization: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/orgadmin');
  await chooseOption(page, 'Organization', organization);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Access Admin Dashboard' }).click();
}
