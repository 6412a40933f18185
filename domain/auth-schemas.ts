import { z } from 'zod';
import { singleLine } from './text-rules';

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
