import { defineConfig, devices } from '@playwright/test';
import { E2E_AUTH_SECRET } from './e2e/e2e-auth-secret';

// End-to-end tests in Debian's Chromium (never a downloaded browser) against the real server,
// on a fresh embedded database seeded with the demo data.
// E2E_PORT and E2E_DATA_DIR let several checkouts run their suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 3210);
const DATA_DIR = process.env.E2E_DATA_DIR ?? 'e2e/.data/run';
const isCI = !!process.env.CI;

export default defineConfig({
  testDir: 'e2e',
  // Specs only: e2e/*.test.ts are unit tests of the e2e helpers (vitest).
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  workers: isCI ? 1 : 2,
  reporter: isCI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1366, height: 900 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `rm -rf ${DATA_DIR} && npm start`,
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    // The first start may build the web app.
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR,
      RATE_LIMIT_DISABLED: 'true',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://localhost:${PORT}`,
      // A known key, so e2e/kiosk.spec.ts can derive a booking's arrival code (server/modules/bookings/arrival-code.ts).
      AUTH_SECRET: E2E_AUTH_SECRET,
    },
  },
});
