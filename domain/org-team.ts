import { z } from 'zod';
import { emailField, newPasswordField } from './auth-schemas';
import { ORG_ROLES, type OrgRole } from './enums';
import { singleLine } from './text-rules';

// The organization's team (Settings › Team) and the invitation flow: what the API takes and
// answers. The invite form, the member form and the accept page validate with these schemas, so
// they show the messages the API sends.

export const TEAM_ROLE_LABELS: Record<OrgRole, string> = {
  org_admin: 'Organization admin',
  dockmaster: 'Dockmaster',
  security: 'Security',
};

/** An invitation link works for this long after it was (last) sent. */
export const INVITATION_TTL_DAYS = 7;

/** Dockmasters and security staff sign in at the gate with their employee ID. */
export function needsEmployeeId(role: string): boolean {
  return role === 'dockmaster' || role === 'security';
}

/** Where a member of this role signs in: org admins at /orgadmin, gate staff at /dockmaster. */
export function signInPathForRole(role: string): '/orgadmin' | '/dockmaster' {
  return role === 'org_admin' ? '/orgadmin' : '/dockmaster';
}

export const EMPLOYEE_ID_REQUIRED = 'Employee ID is required for dockmasters and security staff';
export const EMPLOYEE_ID_TAKEN = 'This employee ID is already used in your organization';
export const ALREADY_MEMBER = 'This person is already a member of your organization';
export const INVITATION_PENDING = 'An invitation to this e-mail address is already pending. Resend or revoke it instead.';
export const INVALID_INVITATION = 'This invitation link is invalid or has expired. Ask your organization admin to send a new invitation.';
export const LAST_ADMIN =
  'An organization needs at least one active organization admin. Make another member an admin first.';

export const roleField = z.enum(ORG_ROLES, { error: 'Please choose a role' });

/** Case is kept as typed; uniqueness within the organization ignores it ('dm-01' = 'DM-01'). */
export const employeeIdField = z
  .string()
  .trim()
  .refine(...singleLine('Employee ID'))
  .max(50, 'Employee ID is too long');

const nameField = z.string().trim().refine(...singleLine('Name')).max(200, 'Name is too long');

/**
 * Only role and employee ID decide this check; other fields' errors do not hide it. A body that is
 * not an object at all (null, a list) has nothing to check.
 */
const checksRoleAndEmployeeId = (payload: { value: unknown; issues: Array<{ path?: PropertyKey[] }> }) =>
  typeof payload.value === 'object' &&
  payload.value !== null &&
  !Array.isArray(payload.value) &&
  payload.issues.every((issue) => issue.path?.[0] !== 'role' && issue.path?.[0] !== 'employeeId');

export const inviteMemberSchema = z
  .object({
    email: emailField,
    fullName: nameField.optional(),
    role: roleField,
    /** Required for dockmasters and security staff; blank means none. */
    employeeId: employeeIdField.optional(),
  })
  .refine((v) => !needsEmployeeId(v.role) || !!v.employeeId, {
    path: ['employeeId'],
    message: EMPLOYEE_ID_REQUIRED,
    when: checksRoleAndEmployeeId,
  });
export type InviteMemberInput = z.input<typeof inviteMemberSchema>;

/**
 * A member's role and/or employee ID (blank or null clears it). Whether the resulting role needs
 * an employee ID is checked against the member as stored, so the server decides it too.
 */
export const updateMemberSchema = z
  .object({
    role: roleField.optional(),
    employeeId: employeeIdField.nullable().optional(),
  })
  .refine((v) => v.role !== undefined || v.employeeId !== undefined, { message: 'Nothing to change' })
  .refine((v) => v.role === undefined || v.employeeId === undefined || !needsEmployeeId(v.role) || !!v.employeeId, {
    path: ['employeeId'],
    message: EMPLOYEE_ID_REQUIRED,
    when: checksRoleAndEmployeeId,
  });
export type UpdateMemberInput = z.input<typeof updateMemberSchema>;

/**
 * Accepting an invitation: a new account needs a name and a password (the sign-up rules); an
 * existing account keeps its password, so both may be left out then (the server decides).
 */
export const acceptInvitationSchema = z.object({
  fullName: nameField.optional(),
  password: newPasswordField.optional(),
});
export type AcceptInvitationInput = z.input<typeof acceptInvitationSchema>;

/** The accept page's form for a new account: name, password and its confirmation. */
export const newAccountFormSchema = z
  .object({
    fullName: nameField.min(1, 'Name is required'),
    password: newPasswordField,
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

// ---------------------------------------------------------------------------------------------
// Answers.

export const teamMemberSchema = z.object({
  /** The membership's id (what the member routes take). */
  id: z.string(),
  userId: z.string(),
  fullName: z.string().nullable(),
  email: z.string(),
  role: z.string(),
  employeeId: z.string().nullable(),
  active: z.boolean(),
  lastSignInAt: z.string().nullable(),
  deactivatedAt: z.string().nullable(),
  createdAt: z.string(),
  /** The caller's own membership. */
  isYou: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  role: z.string(),
  employeeId: z.string().nullable(),
  invitedByEmail: z.string().nullable(),
  createdAt: z.string(),
  lastSentAt: z.string(),
  expiresAt: z.string(),
  isExpired: z.boolean(),
});
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;

export const teamSchema = z.object({
  members: z.array(teamMemberSchema),
  /** Pending: neither accepted nor revoked (expired ones included, to resend or revoke). */
  invitations: z.array(teamInvitationSchema),
  /** Whether the caller may invite and change members (org admins and platform admins). */
  canManage: z.boolean(),
});
export type Team = z.infer<typeof teamSchema>;

/** What the invitation link shows before it is accepted. */
export const invitationInfoSchema = z.object({
  orgName: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  role: z.string(),
  employeeId: z.string().nullable(),
  expiresAt: z.string(),
  /** An account with this e-mail exists: accepting adds the membership and keeps its password. */
  hasAccount: z.boolean(),
});
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

export const acceptInvitationResultSchema = z.object({
  orgName: z.string(),
  email: z.string(),
  role: z.string(),
  employeeId: z.string().nullable(),
  /** Where to sign in next: /orgadmin or /dockmaster. */
  signInPath: z.string(),
});
export type AcceptInvitationResult = z.infer<typeof acceptInvitationResultSchema>;
