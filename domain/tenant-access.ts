// Platform staff and a tenant's data (issue 21, decision 029): a platform role (super admin,
// platform owner, platform support) may read any organization's data, but changes an organization
// only while acting as one of its members — an impersonation session with its reason, time limit,
// banner and double audit (decision 017). The platform's own routes (/api/platform/*) are not
// tenant data and keep their own rules.

/** Methods that read: everything else on a tenant's routes is a change. */
export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

export function isReadMethod(method: string): boolean {
  return (READ_METHODS as readonly string[]).includes(method.toUpperCase());
}

export const PLATFORM_READ_ONLY_CODE = 'platform_read_only';

/** What a platform user is told when they try to change an organization's data directly. */
export const PLATFORM_READ_ONLY_MESSAGE =
  'Platform staff can view this organization but not change it. Start acting as a member of this organization to make changes.';
