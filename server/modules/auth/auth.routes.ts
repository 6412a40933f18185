import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { mfaGrantSchema, passwordGrantSchema, refreshGrantSchema, type MfaChallenge, type Session } from '../../../domain/auth-schemas';
import { authContract as contract } from '../../../domain/contract/auth.contract';
import type { ModuleOptions } from '../../context';
import { requireAuth } from '../../plugins/auth';
import { badRequest } from '../../plugins/errors';
import { perIpLimit } from '../../plugins/rate-limit';
import { requestMeta as meta } from '../../auth/attempts';
import { currentUserRole, getCurrentUser, updateCurrentUser } from './account.service';
import { refreshSession, signOut } from './session.service';
import { signInDockmaster, signInWithMfa, signInWithPassword } from './sign-in.service';
import { getAuthSettings, requestPasswordRecovery, signUp, verifyToken } from './sign-up.service';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S, deviceCookieValue, readDeviceMarks } from '../../auth/sign-in-throttle';

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

const authRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  // Per-IP limits on every credential endpoint; per-account limits live in the service.
  const limit = (max: number) => perIpLimit(ctx, max);

  app.post(
    '/auth/token',
    {
      config: limit(20),
      schema: {
        ...contract['POST /api/auth/token'],
        tags: ['auth'],
        summary:
          'Sign in with a password (grant_type=password), finish a two-factor sign-in (grant_type=mfa) or rotate a refresh token (grant_type=refresh_token)',
        description:
          'With two-factor sign-in on, grant_type=password answers { mfa_required, challenge_token, expires_in, methods } instead of a session; grant_type=mfa with the challenge_token and a code (or a recovery_code) answers the session.',
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
        return sendSession(ctx, request, reply, await refreshSession(ctx, parse(refreshGrantSchema).refresh_token), false);
      }
      if (request.query.grant_type === 'mfa') {
        return sendSession(ctx, request, reply, await signInWithMfa(ctx, parse(mfaGrantSchema), meta(request)), true);
      }
      return sendSession(ctx, request, reply, await signInWithPassword(ctx, parse(passwordGrantSchema), meta(request)), true);
    },
  );

  app.post(
    '/auth/dockmaster/token',
    {
      config: limit(20),
      schema: {
        ...contract['POST /api/auth/dockmaster/token'],
        tags: ['auth'],
        summary: 'Dockmaster sign-in with site, employee ID and password',
      },
    },
    async (request, reply) => sendSession(ctx, request, reply, await signInDockmaster(ctx, request.body, meta(request)), true),
  );

  app.post(
    '/auth/logout',
    { schema: { ...contract['POST /api/auth/logout'], tags: ['auth'], summary: 'Sign out: revokes the session and its refresh tokens', security: [{ bearer: [] }] } },
    async (request, reply) => {
      const session = requireAuth(request);
      await signOut(ctx, session, meta(request));
      // Its live-update sockets close on every node (server/realtime).
      ctx.realtime?.endSession?.(session.sessionId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/auth/user',
    { schema: { ...contract['GET /api/auth/user'], tags: ['auth'], summary: 'The signed-in user, role and memberships', security: [{ bearer: [] }] } },
    async (request) => getCurrentUser(ctx, requireAuth(request)),
  );

  app.put(
    '/auth/user',
    {
      schema: {
        ...contract['PUT /api/auth/user'],
        tags: ['auth'],
        summary: 'Update name, phone or password',
        security: [{ bearer: [] }],
      },
    },
    async (request) => updateCurrentUser(ctx, requireAuth(request), request.body),
  );

  app.post(
    '/auth/signup',
    {
      config: limit(10),
      schema: {
        ...contract['POST /api/auth/signup'],
        tags: ['auth'],
        summary: 'Create an account; a confirmation link is e-mailed',
      },
    },
    async (request) => signUp(ctx, request.body),
  );

  app.post(
    '/auth/recover',
    {
      config: limit(10),
      schema: { ...contract['POST /api/auth/recover'], tags: ['auth'], summary: 'E-mail a password reset link' },
    },
    async (request) => requestPasswordRecovery(ctx, request.body.email, meta(request)),
  );

  app.get(
    '/auth/settings',
    {
      schema: {
        ...contract['GET /api/auth/settings'],
        tags: ['auth'],
        summary: 'What the sign-in and sign-up screens need to know: whether anyone may create an account',
      },
    },
    async () => getAuthSettings(ctx),
  );

  app.post(
    '/auth/verify',
    {
      config: limit(20),
      schema: {
        ...contract['POST /api/auth/verify'],
        tags: ['auth'],
        summary: 'Confirm an e-mail address or set a new password from an e-mailed link',
      },
    },
    async (request) => verifyToken(ctx, request.body),
  );

  app.post(
    '/rpc/get_current_user_role',
    {
      schema: {
        ...contract['POST /api/rpc/get_current_user_role'],
        tags: ['auth'],
        summary: 'The current user role (spec get_current_user_role)',
        security: [{ bearer: [] }],
      },
    },
    // A JSON string (or null), as a database RPC returns it; Fastify would send a bare string as text.
    async (request, reply) =>
      reply.type('application/json').serializer((v) => JSON.stringify(v)).send(await currentUserRole(ctx, requireAuth(request))),
  );
};

export default authRoutes;
