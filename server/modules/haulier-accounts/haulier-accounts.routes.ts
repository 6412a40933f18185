import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { HAULIER_SESSION_COOKIE, HAULIER_SESSION_DAYS } from '../../../domain/haulier-accounts';
import { haulierAccountsContract as contract } from '../../../domain/contract/haulier-accounts.contract';
import type { AppContext, ModuleOptions } from '../../context';
import { AppError } from '../../plugins/errors';
import { perIpLimit } from '../../plugins/rate-limit';
import * as service from './haulier-accounts.service';

// A haulier's password-less account (decision 044), under /api/public/haulier. The session is an
// HttpOnly cookie sent only to these routes; every route but the link and the sign-in needs it, and
// what they read or change is scoped by the session's account, never by the request.

const COOKIE_PATH = '/api/public/haulier';
const tags = ['haulier account'];

function readSessionCookie(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === HAULIER_SESSION_COOKIE) return decodeURIComponent(rest.join('=')) || null;
  }
  return null;
}

function sessionCookie(ctx: AppContext, value: string, maxAgeS: number): string {
  const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${HAULIER_SESSION_COOKIE}=${encodeURIComponent(value)}; Path=${COOKIE_PATH}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure}`;
}

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

const haulierAccountRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.post(
    '/haulier/sign-in-link',
    {
      config: perIpLimit(ctx, 10),
      schema: { ...contract['POST /api/public/haulier/sign-in-link'], tags, summary: 'E-mail a one-time sign-in link (the same answer whether or not the address is known)' },
    },
    async (request, reply) => reply.code(202).send(await service.requestSignInLink(ctx, request.body, request.ip ?? null)),
  );

  app.post(
    '/haulier/sessions',
    {
      config: perIpLimit(ctx, 20),
      schema: { ...contract['POST /api/public/haulier/sessions'], tags, summary: 'Sign in with the token of an e-mailed link (once, within 15 minutes): sets the bw_haulier cookie' },
    },
    async (request, reply) => {
      const { account, sessionToken } = await service.signInWithLink(ctx, request.body, request.ip ?? null);
      noStore(reply).header('set-cookie', sessionCookie(ctx, sessionToken, HAULIER_SESSION_DAYS * 86_400));
      return account;
    },
  );

  // Whether anyone is signed in: a 200 either way, so the portal's pages ask without a failed request.
  app.get('/haulier/me', { schema: { ...contract['GET /api/public/haulier/me'], tags, summary: 'The signed-in haulier, or signedIn false' } }, async (request, reply) => {
    const haulier = await service.haulierOfSession(ctx, readSessionCookie(request));
    noStore(reply);
    if (!haulier) return { signedIn: false as const };
    const { sessionId: _session, ...account } = haulier;
    return { signedIn: true as const, ...account };
  });

  // Everything below needs the haulier's session.
  await app.register(async (scope) => {
    const signedIn = scope.withTypeProvider<ZodTypeProvider>();
    signedIn.decorateRequest('haulier', null);
    signedIn.addHook('preHandler', async (request, reply) => {
      const haulier = await service.haulierOfSession(ctx, readSessionCookie(request));
      if (!haulier) throw new AppError(401, 'haulier_signed_out', 'Sign in to see your bookings.');
      request.haulier = haulier;
      noStore(reply);
    });
    const me = (request: FastifyRequest) => request.haulier!;

    signedIn.delete(
      '/haulier/sessions/current',
      { schema: { ...contract['DELETE /api/public/haulier/sessions/current'], tags, summary: 'Sign out: ends the session and clears its cookie' } },
      async (request, reply) => {
        await service.signOut(ctx, me(request), request.ip ?? null);
        return reply.header('set-cookie', sessionCookie(ctx, '', 0)).code(204).send(null);
      },
    );

    signedIn.get(
      '/haulier/bookings',
      { schema: { ...contract['GET /api/public/haulier/bookings'], tags, summary: "The haulier's bookings on every organization (their e-mail address), upcoming or past, a page at a time" } },
      async (request) => service.listBookings(ctx, me(request), request.query),
    );

    signedIn.get(
      '/haulier/bookings/:id/rebook',
      { schema: { ...contract['GET /api/public/haulier/bookings/:id/rebook'], tags, summary: "The request form's values from one of the haulier's bookings (all but date and slot)" } },
      async (request) => service.rebookPrefill(ctx, me(request), request.params.id),
    );

    signedIn.get('/haulier/vehicles', { schema: { ...contract['GET /api/public/haulier/vehicles'], tags, summary: 'Saved vehicles' } }, async (request) =>
      service.listVehicles(ctx, me(request)),
    );
    signedIn.post('/haulier/vehicles', { schema: { ...contract['POST /api/public/haulier/vehicles'], tags, summary: 'Save a vehicle' } }, async (request, reply) =>
      reply.code(201).send(await service.saveVehicle(ctx, me(request), request.body)),
    );
    signedIn.delete('/haulier/vehicles/:id', { schema: { ...contract['DELETE /api/public/haulier/vehicles/:id'], tags, summary: 'Delete a saved vehicle' } }, async (request, reply) => {
      await service.deleteVehicle(ctx, me(request), request.params.id);
      return reply.code(204).send(null);
    });

    signedIn.get('/haulier/contacts', { schema: { ...contract['GET /api/public/haulier/contacts'], tags, summary: 'Saved contacts' } }, async (request) =>
      service.listContacts(ctx, me(request)),
    );
    signedIn.post('/haulier/contacts', { schema: { ...contract['POST /api/public/haulier/contacts'], tags, summary: 'Save a contact' } }, async (request, reply) =>
      reply.code(201).send(await service.saveContact(ctx, me(request), request.body)),
    );
    signedIn.delete('/haulier/contacts/:id', { schema: { ...contract['DELETE /api/public/haulier/contacts/:id'], tags, summary: 'Delete a saved contact' } }, async (request, reply) => {
      await service.deleteContact(ctx, me(request), request.params.id);
      return reply.code(204).send(null);
    });

    signedIn.get(
      '/haulier/standing-bookings',
      { schema: { ...contract['GET /api/public/haulier/standing-bookings'], tags, summary: "The haulier's standing requests and series on every organization (their e-mail address), newest first" } },
      async (request) => service.listStandingBookings(ctx, me(request)),
    );

    signedIn.post(
      '/haulier/standing-requests',
      {
        config: perIpLimit(ctx, 20),
        schema: { ...contract['POST /api/public/haulier/standing-requests'], tags, summary: "Request a standing booking for an organization admin's approval (where the haulier's tenant allows it)" },
      },
      async (request, reply) => reply.code(201).send(await service.requestStandingBooking(ctx, me(request), request.body, request.ip ?? null)),
    );
  });
};

declare module 'fastify' {
  interface FastifyRequest {
    haulier: service.Haulier | null;
  }
}

export default haulierAccountRoutes;
