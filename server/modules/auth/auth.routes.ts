import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dockmasterLoginSchema,
  passwordGrantSchema,
  recoverSchema,
  refreshGrantSchema,
  sessionSchema,
  signUpSchema,
  updateUserSchema,
  verifySchema,
  type Session,
} from '../../../domain/auth-schemas';
import type { ModuleOptions } from '../../app';
import { requireAuth } from '../../plugins/auth';
import { badRequest } from '../../plugins/errors';
import { perIpLimit } from '../../plugins/rate-limit';
import * as auth from './auth.service';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S, deviceCookieValue, readDeviceMarks } from './sign-in-throttle';

const meta = (request: FastifyRequest) => ({
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent'] ?? null,
  deviceMarks: readDeviceMarks(request.headers.cookie),
});

/**
 * A token response: never cached by a browser or a proxy. After a sign-in, the browser is marked
 * as recognised for the account (sign-in-throttle.ts).
 */
function sendSession(ctx: ModuleOptions['ctx'], request: FastifyRequest, reply: FastifyReply, session: Session, isSignIn: boolean) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (isSignIn) {
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
        summary: 'Sign in with a password (grant_type=password) or rotate a refresh token (grant_type=refresh_token)',
        querystring: z.object({ grant_type: z.enum(['password', 'refresh_token'], 'Unsupported grant type') }),
        body: z.record(z.string(), z.unknown()),
        response: { 200: sessionSchema },
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
        response: { 200: sessionSchema },
      },
    },
    async (request, reply) => sendSession(ctx, request, reply, await auth.signInDockmaster(ctx, request.body, meta(request)), true),
  );

  app.post(
    '/auth/logout',
    { schema: { tags: ['auth'], summary: 'Sign out: revokes the session and its refresh tokens', security: [{ bearer: [] }] } },
    async (request, reply) => {
      await auth.signOut(ctx, requireAuth(request), meta(request));
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
    async (request) => auth.requestPasswordRecovery(ctx, request.body.email),
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
