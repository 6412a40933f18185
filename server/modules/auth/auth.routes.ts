import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authSettingsSchema,
  dockmasterLoginSchema,
  impersonationSchema,
  mfaChallengeSchema,
  mfaGrantSchema,
  passwordGrantSchema,
  recoverSchema,
  refreshGrantSchema,
  sessionSchema,
  signUpSchema,
  updateUserSchema,
  verifySchema,
  type MfaChallenge,
  type Session,
} from '../../../domain/auth-schemas';
import type { ModuleOptions } from '../../app';
import { requireAuth } from '../../plugins/auth';
import { badRequest } from '../../plugins/errors';
import { perIpLimit } from '../../plugins/rate-limit';
import { requestMeta as meta } from './attempts';
import * as auth from './auth.service';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S, deviceCookieValue, readDeviceMarks } from './sign-in-throttle';

/**
 * A token response: never cached by a browser or a proxy. After a sign-in, the browser is marked
 * as recognised for the account (sign-in-throttle.ts); a two-factor challenge marks nothing yet.
 */
function sendSession(
  ctx: ModuleOptions['ctx'],
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session | MfaChallenge,
  isSignIn: boolean,
) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (isSignIn && 'user' in session) {
    const value = deviceCookieValue(ctx.authSecret, readDeviceMarks(request.headers.cookie), session.user.id);
    const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
    reply.header(
      'set-cookie',
      `${DEVICE_COOKIE}=${encodeURIComponent(value)}; Path=/api/auth; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`,
    );
  }
  return reply.send(session);
}

const currentUserSchema = z.object({
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

const messageSchema = z.object({ message: z.string() });

const authRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  // Per-IP limits on every credential endpoint; per-account limits live in the service.
  const limit = (max: number) => perIpLimit(ctx, max);

  app.post(
    '/auth/token',
    {
      config: limit(20),
      schema: {
        tags: ['auth'],
        summary:
          'Sign in with a password (grant_type=password), finish a two-factor sign-in (grant_type=mfa) or rotate a refresh token (grant_type=refresh_token)',
        description:
          'With two-factor sign-in on, grant_type=password answers { mfa_required, challenge_token, expires_in, methods } instead of a session; grant_type=mfa with the challenge_token and a code (or a recovery_code) answers the session.',
        querystring: z.object({ grant_type: z.enum(['password', 'refresh_token', 'mfa'], 'Unsupported grant type') }),
        body: z.record(z.string(), z.unknown()),
        response: { 200: z.union([sessionSchema, mfaChallengeSchema]) },
      },
    },
    async (request, reply) => {
      const parse = <S extends z.ZodType>(schema: S): z.infer<S> => {
        const parsed = schema.safeParse(request.body);
        if (!parsed.success) {
          const messages = parsed.error.issues.map((issue) => issue.message);
          throw badRequest([...new Set(messages)].join(', '), { messages });
        }
        return parsed.data;
      };
      if (request.query.grant_type === 'refresh_token') {
        return sendSession(ctx, request, reply, await auth.refreshSession(ctx, parse(refreshGrantSchema).refresh_token), false);
      }
      if (request.query.grant_type === 'mfa') {
        return sendSession(ctx, request, reply, await auth.signInWithMfa(ctx, parse(mfaGrantSchema), meta(request)), true);
      }
      return sendSession(ctx, request, reply, await auth.signInWithPassword(ctx, parse(passwordGrantSchema), meta(request)), true);
    },
  );

  app.post(
    '/auth/dockmaster/token',
    {
      config: limit(20),
      schema: {
        tags: ['auth'],
        summary: 'Dockmaster sign-in with site, employee ID and password',
        body: dockmasterLoginSchema,
        response: { 200: z.union([sessionSchema, mfaChallengeSchema]) },
      },
    },
    async (request, reply) => sendSession(ctx, request, reply, await auth.signInDockmaster(ctx, request.body, meta(request)), true),
  );

  app.post(
    '/auth/logout',
    { schema: { tags: ['auth'], summary: 'Sign out: revokes the session and its refresh tokens', security: [{ bearer: [] }] } },
    async (request, reply) => {
      const session = requireAuth(request);
      await auth.signOut(ctx, session, meta(request));
      // Its live-update sockets close on every node (server/realtime).
      ctx.realtime?.endSession?.(session.sessionId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/auth/user',
    { schema: { tags: ['auth'], summary: 'The signed-in user, role and memberships', security: [{ bearer: [] }], response: { 200: currentUserSchema } } },
    async (request) => auth.getCurrentUser(ctx, requireAuth(request)),
  );

  app.put(
    '/auth/user',
    {
      schema: {
        tags: ['auth'],
        summary: 'Update name, phone or password',
        security: [{ bearer: [] }],
        body: updateUserSchema,
        response: { 200: currentUserSchema },
      },
    },
    async (request) => auth.updateCurrentUser(ctx, requireAuth(request), request.body),
  );

  app.post(
    '/auth/signup',
    {
      config: limit(10),
      schema: {
        tags: ['auth'],
        summary: 'Create an account; a confirmation link is e-mailed',
        body: signUpSchema,
        response: { 200: z.object({ confirmationSent: z.boolean() }) },
      },
    },
    async (request) => auth.signUp(ctx, request.body),
  );

  app.post(
    '/auth/recover',
    {
      config: limit(10),
      schema: { tags: ['auth'], summary: 'E-mail a password reset link', body: recoverSchema, response: { 200: messageSchema } },
    },
    async (request) => auth.requestPasswordRecovery(ctx, request.body.email, meta(request)),
  );

  app.get(
    '/auth/settings',
    {
      schema: {
        tags: ['auth'],
        summary: 'What the sign-in and sign-up screens need to know: whether anyone may create an account',
        response: { 200: authSettingsSchema },
      },
    },
    async () => auth.getAuthSettings(ctx),
  );

  app.post(
    '/auth/verify',
    {
      config: limit(20),
      schema: {
        tags: ['auth'],
        summary: 'Confirm an e-mail address or set a new password from an e-mailed link',
        body: verifySchema,
        response: { 200: z.object({ email: z.string(), message: z.string() }) },
      },
    },
    async (request) => auth.verifyToken(ctx, request.body),
  );

  app.post(
    '/rpc/get_current_user_role',
    {
      schema: {
        tags: ['auth'],
        summary: 'The current user role (spec get_current_user_role)',
        security: [{ bearer: [] }],
        response: { 200: z.string().nullable() },
      },
    },
    // A JSON string (or null), as a database RPC returns it; Fastify would send a bare string as text.
    async (request, reply) =>
      reply.type('application/json').serializer((v) => JSON.stringify(v)).send(await auth.currentUserRole(ctx, requireAuth(request))),
  );
};

export default authRoutes;
