import { z } from 'zod';
import {
  authSettingsSchema,
  dockmasterLoginSchema,
  impersonationSchema,
  mfaChallengeSchema,
  recoverSchema,
  sessionSchema,
  signUpSchema,
  updateUserSchema,
  verifySchema,
} from '../auth-schemas';
import { defineContract } from './define-contract';

// Sign-in, the signed-in user and account e-mails (server/modules/auth/auth.routes.ts).

/** The token endpoint's body is checked per grant type by the handler (passwordGrantSchema, mfaGrantSchema, refreshGrantSchema). */
export const tokenGrantQuerySchema = z.object({ grant_type: z.enum(['password', 'refresh_token', 'mfa'], 'Unsupported grant type') });
/** A session, or the two-factor challenge a password sign-in answers when the account has it on. */
export const signInResultSchema = z.union([sessionSchema, mfaChallengeSchema]);

export const currentUserSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    fullName: z.string().nullable(),
    platformRole: z.string().nullable(),
    phone: z.string().nullable(),
    emailConfirmedAt: z.string().nullable(),
  }),
  role: z.string().nullable(),
  orgId: z.string().nullable(),
  siteId: z.string().nullable(),
  /** Set while a platform user acts as this user (decision 017). */
  impersonation: impersonationSchema.nullable(),
  /** Two-factor sign-in (decision 018): on, required by the platform, still to be set up. */
  mfa: z.object({ enrolled: z.boolean(), required: z.boolean(), enrolmentRequired: z.boolean() }),
  memberships: z.array(
    z.object({ orgId: z.string(), orgName: z.string(), role: z.string(), active: z.boolean(), employeeId: z.string().nullable() }),
  ),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const signUpResultSchema = z.object({ confirmationSent: z.boolean() });
export const recoverResultSchema = z.object({ message: z.string() });
export const verifyResultSchema = z.object({ email: z.string(), message: z.string() });
export type VerifyResult = z.infer<typeof verifyResultSchema>;
/** spec get_current_user_role: the role as a JSON string, or null. */
export const currentUserRoleSchema = z.string().nullable();

export const authContract = defineContract({
  'POST /api/auth/token': { querystring: tokenGrantQuerySchema, body: z.record(z.string(), z.unknown()), response: { 200: signInResultSchema } },
  'POST /api/auth/dockmaster/token': { body: dockmasterLoginSchema, response: { 200: signInResultSchema } },
  'POST /api/auth/logout': { response: { 204: z.null() } },
  'GET /api/auth/user': { response: { 200: currentUserSchema } },
  'PUT /api/auth/user': { body: updateUserSchema, response: { 200: currentUserSchema } },
  'POST /api/auth/signup': { body: signUpSchema, response: { 200: signUpResultSchema } },
  'POST /api/auth/recover': { body: recoverSchema, response: { 200: recoverResultSchema } },
  'GET /api/auth/settings': { response: { 200: authSettingsSchema } },
  'POST /api/auth/verify': { body: verifySchema, response: { 200: verifyResultSchema } },
  'POST /api/rpc/get_current_user_role': { response: { 200: currentUserRoleSchema } },
});
