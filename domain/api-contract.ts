import { anprWebhookContract } from './contract/anpr-webhook.contract';
import { apiKeysContract } from './contract/api-keys.contract';
import { auditLogContract } from './contract/audit-log.contract';
import { authContract } from './contract/auth.contract';
import { billingContract } from './contract/billing.contract';
import { errorMonitoringContract } from './contract/error-monitoring.contract';
import { gateContract } from './contract/gate.contract';
import { kioskContract } from './contract/kiosk.contract';
import { haulierAccountsContract } from './contract/haulier-accounts.contract';
import { healthContract } from './contract/health.contract';
import { impersonationContract } from './contract/impersonation.contract';
import { invitationContract } from './contract/invitation.contract';
import { mfaContract } from './contract/mfa.contract';
import { orgBaysContract } from './contract/org-bays.contract';
import { orgBlackoutsContract } from './contract/org-blackouts.contract';
import { orgBookingsContract } from './contract/org-bookings.contract';
import { orgDashboardContract } from './contract/org-dashboard.contract';
import { orgScheduleContract } from './contract/org-schedule.contract';
import { orgSettingsContract } from './contract/org-settings.contract';
import { orgSitesContract } from './contract/org-sites.contract';
import { orgTeamContract } from './contract/org-team.contract';
import { orgTenantsContract } from './contract/org-tenants.contract';
import { organizationsContract } from './contract/organizations.contract';
import { plateReadsContract } from './contract/plate-reads.contract';
import { platformAdminContract } from './contract/platform-admin.contract';
import { platformSettingsContract } from './contract/platform-settings.contract';
import { platformContract } from './contract/platform.contract';
import { publicBookingsContract } from './contract/public-bookings.contract';
import { publicContract } from './contract/public.contract';
import { reportsContract } from './contract/reports.contract';
import { sscAdminContract } from './contract/ssc-admin.contract';
import { standingBookingsContract } from './contract/standing-bookings.contract';
import { stripeWebhookContract } from './contract/stripe-webhook.contract';
import { tsrLinkContract } from './contract/tsr-link.contract';
import { usageContract } from './contract/usage.contract';
import { webhooksContract } from './contract/webhooks.contract';

// Every operation of the Baywise API in one table (docs/decisions/026-typed-api-contract.md), one
// area file per route file under domain/contract/. The carriers' SSC API (/api/ssc/…) is not here:
// its contract is the standard's own OpenAPI document (server/modules/ssc/ssc.contract.test.ts).
// The web imports this file's TYPE only (lint refuses a value import): the schemas stay out of its bundles.

export const apiContractAreas = {
  health: healthContract,
  auth: authContract,
  mfa: mfaContract,
  impersonation: impersonationContract,
  invitation: invitationContract,
  public: publicContract,
  publicBookings: publicBookingsContract,
  haulierAccounts: haulierAccountsContract,
  organizations: organizationsContract,
  platform: platformContract,
  platformAdmin: platformAdminContract,
  platformSettings: platformSettingsContract,
  auditLog: auditLogContract,
  errorMonitoring: errorMonitoringContract,
  usage: usageContract,
  billing: billingContract,
  stripeWebhook: stripeWebhookContract,
  orgBookings: orgBookingsContract,
  orgDashboard: orgDashboardContract,
  orgSchedule: orgScheduleContract,
  orgSites: orgSitesContract,
  orgBays: orgBaysContract,
  orgBlackouts: orgBlackoutsContract,
  orgTenants: orgTenantsContract,
  standingBookings: standingBookingsContract,
  orgTeam: orgTeamContract,
  orgSettings: orgSettingsContract,
  reports: reportsContract,
  apiKeys: apiKeysContract,
  webhooks: webhooksContract,
  tsrLink: tsrLinkContract,
  sscAdmin: sscAdminContract,
  gate: gateContract,
  plateReads: plateReadsContract,
  anprWebhook: anprWebhookContract,
  kiosk: kioskContract,
};

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
type Areas = typeof apiContractAreas;

/** `'GET /api/orgs/:orgId/bookings'` → its schemas, over every area (a key in two areas fails the contract test). */
export const apiContract = Object.assign({}, ...Object.values(apiContractAreas)) as UnionToIntersection<Areas[keyof Areas]>;

export type ApiContract = typeof apiContract;
