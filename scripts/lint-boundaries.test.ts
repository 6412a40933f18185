import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// A probe for each boundary eslint.config.js enforces (issues 8 and 20): a small import that
// breaks the rule, linted as if it were a file in the zone, must be reported with the zone's
// message; the allowed way to get the same thing must pass. The files need not exist — only what
// they import does. import-x/no-cycle is off here: it is not what is probed, and it is slow.

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { files: ['web/**/*.{ts,tsx}', 'server/**/*.ts', 'domain/**/*.ts'], rules: { 'import-x/no-cycle': 'off' } },
});

async function boundaryMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  const fatal = result!.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

type Probe = { rule: string; file: string; breaks: string; allowed: string; message: string };

const PROBES: Probe[] = [
  {
    rule: 'a module never imports another module’s repo',
    file: 'server/modules/gate/probe.ts',
    breaks: "import { findBookingView } from '../bookings/bookings.repo';\nexport const probe = findBookingView;\n",
    allowed: "import { findBookingView } from '../bookings/booking-records';\nimport * as repo from './gate.repo';\nexport const probe = [findBookingView, repo];\n",
    message: "Another module's repo is private",
  },
  {
    rule: 'the composition (jobs, app) uses a module’s services, not its repo',
    file: 'server/jobs/probe.ts',
    breaks: "import * as repo from '../modules/blackouts/org-blackouts.repo';\nexport const probe = repo;\n",
    allowed: "import { extendSeriesToHorizon } from '../modules/blackouts/blackout-series.service';\nexport const probe = extendSeriesToHorizon;\n",
    message: "A module's repo is private",
  },
  {
    rule: 'plugins never import a module',
    file: 'server/plugins/probe.ts',
    breaks: "import type { AuditActor } from '../modules/org-settings/org-settings.service';\nexport type Probe = AuditActor;\n",
    allowed: "import type { AuditActor } from '../audit/write-audit';\nexport type Probe = AuditActor;\n",
    message: 'Shared server code',
  },
  {
    rule: 'the delivery engine never imports a module',
    file: 'server/delivery/probe.ts',
    breaks: "import { findBookingView } from '../modules/bookings/booking-records';\nexport const probe = findBookingView;\n",
    allowed: "import { listOrgAdminEmails } from '../mail/recipients';\nexport const probe = listOrgAdminEmails;\n",
    message: 'Shared server code',
  },
  {
    rule: 'core auth never imports a module',
    file: 'server/auth/probe.ts',
    breaks: "import { currentUserRole } from '../modules/auth/account.service';\nexport const probe = currentUserRole;\n",
    allowed: "import { getPlatformConfig } from '../platform-config';\nexport const probe = getPlatformConfig;\n",
    message: 'Shared server code',
  },
  {
    rule: 'a module never imports the composition (app.ts)',
    file: 'server/modules/gate/probe.ts',
    breaks: "import type { App } from '../../app';\nexport type Probe = App;\n",
    allowed: "import type { ModuleOptions } from '../../context';\nexport type Probe = ModuleOptions;\n",
    message: 'Only the composition',
  },
  {
    rule: 'web/components never imports a feature',
    file: 'web/components/auth/probe.tsx',
    breaks: "import { recoverPassword } from '../../features/auth/api/recover-password';\nexport const probe = recoverPassword;\n",
    allowed: "import { errorMessage } from '../../lib/api-client';\nexport const probe = errorMessage;\n",
    message: 'web/components is shared by features',
  },
  {
    rule: 'web/lib never imports a feature or a component',
    file: 'web/lib/probe.ts',
    breaks: "import { Brand } from '../components/ui/brand';\nexport const probe = Brand;\n",
    allowed: "import { formatCount } from './format';\nexport const probe = formatCount;\n",
    message: 'web/lib is the bottom layer',
  },
  {
    rule: 'a web feature uses another only through its api/ or hooks/',
    file: 'web/features/org/probe.ts',
    breaks: "import AdminLoginPage from '../auth/routes/admin-login-page';\nexport const probe = AdminLoginPage;\n",
    allowed: "import { recoverPassword } from '../auth/api/recover-password';\nexport const probe = recoverPassword;\n",
    message: 'Use another feature only through its api/ or hooks/',
  },
  {
    rule: 'domain/ imports neither server/ nor web/',
    file: 'domain/probe.ts',
    breaks: "import type { AppContext } from '../server/context';\nexport type Probe = AppContext;\n",
    allowed: "import { BOOKING_STATUSES } from './enums';\nexport const probe = BOOKING_STATUSES;\n",
    message: 'domain/ is shared',
  },
];

describe('boundaries the linter enforces', () => {
  it.each(PROBES)('$rule', async ({ file, breaks, allowed, message }) => {
    const reported = await boundaryMessages(file, breaks);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain(message);
    expect(await boundaryMessages(file, allowed)).toEqual([]);
  }, 120_000);

  it('lets a test read another module’s repo (tests check what a change wrote)', async () => {
    const code = "import { countOverlaps } from '../availability/availability.repo';\nexport const probe = countOverlaps;\n";
    expect(await boundaryMessages('server/modules/bookings/probe.test.ts', code)).toEqual([]);
    expect(await boundaryMessages('server/modules/bookings/probe.ts', code)).toHaveLength(1);
  }, 120_000);
});
