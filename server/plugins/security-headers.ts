import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** The camera is ours alone (the plate scanner); nothing else a page could ask the browser for. */
export const PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=()';

/** The app's page policy: scripts, styles and connections from this origin only. */
export const APP_HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      workerSrc: ["'self'", 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * Helmet's security headers and our permissions policy on every answer. Helmet's middleware is
 * built once, here: @fastify/helmet built it again for every request (its options parsed, its CSP
 * directives checked and joined anew), about a twentieth of the server's CPU per booking under
 * load (issue 25, bench/RESULTS.md). A route that needs another policy sets its own header.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const applyHelmet = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    applyHelmet(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
});
