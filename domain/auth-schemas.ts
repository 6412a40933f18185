import { z } from 'zod';
import { multiLine, singleLine } from './text-rules';

// Request schemas of the auth API, shared with the sign-in forms.

export const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .refine(...singleLine('Email'))
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Please enter a valid email address');

export const passwordField = z
  .string({ error: 'Password is required' })
  .refine(...singleLine('Password'))
  .min(1, 'Password is required')
  .max(200, 'Password is too long');

/** Sign-up and password reset: the weak-password rules, each with its reason. */
export const newPasswordField = z
  .string({ error: 'Password is required' })
  .refine(...singleLine('Password'))
  .min(8, 'Password should be at least 8 characters')
  .max(200, 'Password is too long')
  .refine((p) => /[A-Za-z]/.test(p) && /[0-9]/.test(p), 'Password should contain at least one letter and one number');

export const passwordGrantSchema = z.object({
  email: emailField,
  password: passwordField,
  orgId: z.uuid('Please choose an organization').optional(),
});

export const refreshGrantSchema = z.object({
  refresh_token: z.string({ error: 'Refresh token is required' }).refine(...singleLine('Refresh token')).min(1, 'Refresh token is required').max(200),
});

export const dockmasterLoginSchema = z.object({
  siteId: z.uuid('Please choose a site'),
  employeeId: z
    .string({ error: 'Employee ID is required' })
    .trim()
    .refine(...singleLine('Employee ID'))
    .min(1, 'Employee ID is required')
    .max(50, 'Employee ID is too long'),
  password: passwordField,
});

export const signUpSchema = z.object({
  email: emailField,
  password: newPasswordField,
  fullName: z.string().trim().refine(...singleLine('Name')).max(200, 'Name is too long').optional(),
});

export const recoverSchema = z.object({ email: emailField });

export const verifySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('signup'), token: z.string().refine(...singleLine('Token')).min(1, 'Token is required').max(200) }),
  z.object({
    type: z.literal('recovery'),
    token: z.string().refine(...singleLine('Token')).min(1, 'Token is required').max(200),
    password: newPasswordField,
  }),
]);

export const updateUserSchema = z
  .object({
    fullName: z.string().trim().refine(...singleLine('Name')).max(200, 'Name is too long').optional(),
    phone: z.string().trim().refine(...singleLine('Phone')).max(50, 'Phone is too long').optional(),
    password: newPasswordField.optional(),
    currentPassword: z.string().refine(...singleLine('Current password')).max(200).optional(),
  })
  .refine((v) => !v.password || !!v.currentPassword, {
    message: 'Current password is required to set a new password',
    path: ['currentPassword'],
  });

export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  platformRole: z.string().nullable(),
});

/** The session shape of spec §3: access token, refresh token, expires_at, expires_in, token_type, user. */
export const sessionSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number(),
  expires_at: z.number(),
  user: sessionUserSchema,
});
export type Session = z.infer<typeof sessionSchema>;

// ── Two-factor sign-in (TOTP) ──────────────────────────────────────────────────────────────────
// Decision 018. Platform roles enrol an authenticator app; once enrolled, the password sign-in
// answers a challenge instead of tokens, and a second call with the challenge and a code (or one
// of ten single-use recovery codes) returns the session.

export const MFA_ISSUER = 'Baywise';
/** Codes: six digits, a new one every 30 s; one step either side is accepted (clock drift). */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_S = 30;
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long the sign-in challenge (between password and code) is valid. */
export const MFA_CHALLENGE_TTL_S = 5 * 60;

export const MFA_CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app';
export const MFA_CODE_INVALID = 'That code is not valid. Enter the current code from your authenticator app.';
export const MFA_CODE_REPLAYED = 'That code has already been used. Wait for the next code and try again.';
export const RECOVERY_CODE_INVALID = 'That recovery code is not valid or has already been used.';
export const MFA_CHALLENGE_INVALID = 'Your sign-in has expired. Enter your e-mail and password again.';
export const MFA_ENROLMENT_REQUIRED = 'Two-factor sign-in is required for platform roles. Set it up to continue.';

/** A TOTP code as people type it: spaces and dashes are ignored. */
export const totpCodeField = z
  .string({ error: MFA_CODE_REQUIRED })
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(z.string().min(1, MFA_CODE_REQUIRED).regex(/^[0-9]{6}$/, MFA_CODE_REQUIRED));

/** A recovery code as shown (xxxx-xxxx-xxxx-xxxx): case, spaces and dashes are ignored. */
export const recoveryCodeField = z
  .string({ error: 'Enter one of your recovery codes' })
  .transform((value) => value.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().min(1, 'Enter one of your recovery codes').max(64, RECOVERY_CODE_INVALID));

/** A current code, or one recovery code (to disable two-factor sign-in when the phone is lost). */
export const mfaProofSchema = z
  .object({ code: totpCodeField.optional(), recoveryCode: recoveryCodeField.optional() })
  .refine((v) => !!v.code || !!v.recoveryCode, { message: MFA_CODE_REQUIRED, path: ['code'] });

export const mfaConfirmSchema = z.object({ code: totpCodeField });
export const mfaRegenerateSchema = z.object({ code: totpCodeField });

/** POST /auth/token?grant_type=mfa: the challenge from the password step, and a code or a recovery code. */
export const mfaGrantSchema = z
  .object({
    challenge_token: z.string({ error: MFA_CHALLENGE_INVALID }).min(1, MFA_CHALLENGE_INVALID).max(2000, MFA_CHALLENGE_INVALID),
    code: totpCodeField.optional(),
    recovery_code: recoveryCodeField.optional(),
  })
  .refine((v) => !!v.code || !!v.recovery_code, { message: MFA_CODE_REQUIRED, path: ['code'] });

/** What the password step answers instead of a session once the account has two-factor sign-in. */
export const mfaChallengeSchema = z.object({
  mfa_required: z.literal(true),
  challenge_token: z.string(),
  expires_in: z.number(),
  methods: z.array(z.enum(['totp', 'recovery_code'])),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

export const mfaStatusSchema = z.object({
  /** True once a code confirmed the enrolment. */
  enrolled: z.boolean(),
  confirmedAt: z.string().nullable(),
  recoveryCodesLeft: z.number(),
  /** Whether this account may enrol (platform roles). */
  canEnrol: z.boolean(),
  /** The platform setting: platform roles must enrol. */
  required: z.boolean(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

export const mfaEnrolmentSchema = z.object({
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  otpauthUri: z.string(),
  /** The otpauth URI as an SVG QR code (data: URL), drawn on the server. */
  qrCodeDataUrl: z.string(),
});
export type MfaEnrolment = z.infer<typeof mfaEnrolmentSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

// ── Impersonation ──────────────────────────────────────────────────────────────────────────────
// Decision 017. A super admin or platform support acts as one organization's member, never as a
// platform admin, with a reason, for at most 30 minutes; every entry of the audit log written
// meanwhile names both.

export const IMPERSONATION_MAX_MINUTES = 30;
export const IMPERSONATION_REASON_MIN = 10;
export const IMPERSONATION_REASON_MAX = 500;
export const IMPERSONATOR_ROLES = ['super_admin', 'platform_support'] as const;

export const IMPERSONATION_REASON_REQUIRED = 'A reason is required to act as a member';
export const IMPERSONATION_REASON_SHORT = `Give a reason of at least ${IMPERSONATION_REASON_MIN} characters`;

export const startImpersonationSchema = z.object({
  /** Checked by the service (unknown or malformed: 404). */
  userId: z.string({ error: 'Choose the member to act as' }).max(100),
  orgId: z.string({ error: 'Choose the organization' }).max(100),
  reason: z
    .string({ error: IMPERSONATION_REASON_REQUIRED })
    .trim()
    .min(1, { error: IMPERSONATION_REASON_REQUIRED, abort: true })
    .min(IMPERSONATION_REASON_MIN, IMPERSONATION_REASON_SHORT)
    .max(IMPERSONATION_REASON_MAX, `The reason must be at most ${IMPERSONATION_REASON_MAX} characters`)
    .refine(...multiLine('Reason')),
});
export type StartImpersonationInput = z.input<typeof startImpersonationSchema>;

export const impersonationSchema = z.object({
  /** The impersonation's session id. */
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  userId: z.string(),
  email: z.string(),
  /** The member's role in the organization (where the web app lands). */
  role: z.string(),
  impersonatorId: z.string(),
  impersonatorEmail: z.string(),
  reason: z.string(),
  startedAt: z.string(),
  expiresAt: z.string(),
});
export type Impersonation = z.infer<typeof impersonationSchema>;

/** Starting answers the member's session (as a sign-in does) and what it is. */
export const impersonationStartSchema = sessionSchema.extend({ impersonation: impersonationSchema });
export type ImpersonationStart = z.infer<typeof impersonationStartSchema>;

export const impersonationEndSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  userId: z.string(),
  endedAt: z.string(),
  /** 'ended' by a person, 'expired' after the 30 minutes. */
  outcome: z.enum(['ended', 'expired']),
});
export type ImpersonationEnd = z.infer<typeof impersonationEndSchema>;

/** GET /auth/settings: what the sign-in and sign-up screens need to know before anyone signs in. */
export const authSettingsSchema = z.object({ signUpOpen: z.boolean() });
export type AuthSettings = z.infer<typeof authSettingsSchema>;
export const SIGN_UP_CLOSED = 'Sign-up is closed. Ask your organization administrator to invite you.';
