import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import {
  REALTIME_HEARTBEAT_MS,
  realtimeClientMessageSchema,
  type RealtimeClientMessage,
  type RealtimeServerMessage,
} from '../../domain/realtime';
import type { AppContext, ModuleOptions } from '../context';
import type { AuthContext } from '../plugins/auth';
import { verifyAccessToken } from '../auth/tokens';
import { authorizeSubscription } from './realtime-access';
import { CLOSE_NOT_FOUND, findFollowedBooking, followBooking, isWithdrawn, manageTokenOf, type FollowedBooking } from './manage-socket';

// GET /api/realtime — the live-update socket. Browsers cannot set headers on a WebSocket, so the
// access token comes as the subprotocol `bearer.<token>` (preferred: it stays out of URLs and
// access logs) or as `?access_token=` (redacted in the request log). The upgrade always succeeds;
// a missing or bad token is answered with close code 4401, which a browser can read (an HTTP 401
// on the upgrade it cannot). The socket lives no longer than its token: it closes with 4401 when
// the token expires, when its session is signed out on any node (the hub's session channel), and
// when a periodic check finds the session ended another way (suspension, a deactivated member).
// The socket only reads: it subscribes to what the tenant rule lets its user read.
//
// A driver's manage page opens it with the subprotocol `manage.<manage token>` instead
// (manage-socket.ts): no sign-in, one booking followed, nothing else of the site ever sent. An
// unknown token is answered with 4401, a cancelled or declined booking with 4404.

export const CLOSE_UNAUTHORIZED = 4401;
/** No message (not even a ping) for 2.5 heartbeats: the client is gone or stuck. */
export const CLOSE_IDLE = 4408;
export const CLOSE_SERVER_RESTART = 1012;
const CLOSE_UNAVAILABLE = 1011;

const BEARER_PROTOCOL = 'bearer.';
/** A client that does not read its events is dropped rather than buffered without limit. */
const MAX_BUFFERED_BYTES = 1_000_000;

/** The subset of a `ws` WebSocket used here (the package ships no types of its own). */
type Socket = {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send: (data: string) => void;
  close: (code?: number, reason?: string) => void;
  terminate: () => void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
};
const OPEN = 1;

/** How often a socket checks that its session is still live (sign-out is pushed at once; the rest is found here). */
export const SESSION_CHECK_MS = 60_000;
/** setTimeout's limit (about 24.8 days); a later expiry is re-armed when it fires. */
const MAX_TIMER_MS = 2_147_483_647;

export type RealtimeRouteOptions = ModuleOptions & {
  /** Tests shorten it; the server uses 2.5 × REALTIME_HEARTBEAT_MS. */
  idleTimeoutMs?: number;
  /** Tests shorten it; the server uses SESSION_CHECK_MS. */
  sessionCheckMs?: number;
};

/** The token from the subprotocol, the query string, or an Authorization header (non-browser clients). */
export function accessTokenOf(request: FastifyRequest): string | null {
  const protocols = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  const fromProtocol = protocols.find((p) => p.startsWith(BEARER_PROTOCOL))?.slice(BEARER_PROTOCOL.length);
  if (fromProtocol) return fromProtocol;
  const fromQuery = new URL(request.url, 'http://localhost').searchParams.get('access_token');
  if (fromQuery) return fromQuery;
  const header = request.headers.authorization;
  return header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : null;
}

/**
 * The websocket plugin's shutdown hook: 1012 "service restart" tells clients to come back (to
 * another node, or this one once it is up) rather than give up.
 */
export function closeSocketsForRestart(this: FastifyInstance, done: () => void): void {
  for (const client of this.websocketServer.clients as Set<Socket>) client.close(CLOSE_SERVER_RESTART, 'Server restarting');
  done();
}

const realtimeRoutes: FastifyPluginAsync<RealtimeRouteOptions> = async (
  app,
  { ctx, idleTimeoutMs = 2.5 * REALTIME_HEARTBEAT_MS, sessionCheckMs = SESSION_CHECK_MS },
) => {
  app.get(
    '/realtime',
    {
      websocket: true,
      schema: { hide: true },
      // The auth plugin reads only the Authorization header; the socket's token is checked here,
      // before the upgrade, so the handler below knows the caller synchronously.
      preValidation: async (request) => {
        const token = accessTokenOf(request);
        if (!request.auth && token) request.auth = await verifyAccessToken(ctx, token);
        const manageToken = token ? null : manageTokenOf(request);
        if (manageToken) followedBookings.set(request, await findFollowedBooking(ctx, manageToken));
      },
    },
    (socket: Socket, request) => {
      const token = accessTokenOf(request);
      const manageToken = token ? null : manageTokenOf(request);
      if (manageToken) {
        const booking = followedBookings.get(request) ?? null;
        if (!booking) return socket.close(CLOSE_UNAUTHORIZED, 'This booking link is invalid or has expired');
        if (isWithdrawn(booking)) return socket.close(CLOSE_NOT_FOUND, 'This booking is no longer active');
        return serveManageConnection(ctx, socket, manageToken, booking, { idleTimeoutMs, log: request.log });
      }
      if (!request.auth || !token) {
        socket.close(CLOSE_UNAUTHORIZED, 'Sign in again: missing, invalid or expired access token');
        return;
      }
      serveConnection(ctx, socket, token, request.auth, { idleTimeoutMs, sessionCheckMs, log: request.log });
    },
  );
};

/** The booking a manage socket follows, found before the upgrade (preValidation) so the handler knows it at once. */
const followedBookings = new WeakMap<FastifyRequest, FollowedBooking | null>();

/** Sends a server message, dropping a client that does not read. */
function senderOf(socket: Socket) {
  return (message: RealtimeServerMessage) => {
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return;
    }
    socket.send(JSON.stringify(message));
  };
}

/** A driver's socket: subscribed from the start to its one booking; it only pings. */
function serveManageConnection(
  ctx: AppContext,
  socket: Socket,
  token: string,
  booking: FollowedBooking,
  { idleTimeoutMs, log }: { idleTimeoutMs: number; log: FastifyRequest['log'] },
): void {
  const send = senderOf(socket);
  const subscribe = ctx.realtime?.subscribe;
  if (!subscribe) {
    send({ type: 'error', code: 'unavailable', message: 'Live updates are not available' });
    socket.close(CLOSE_UNAVAILABLE, 'Live updates are not available');
    return;
  }
  let isClosed = false;
  const stop = followBooking(ctx, subscribe, token, booking, send, () => {
    if (!isClosed) socket.close(CLOSE_NOT_FOUND, 'This booking is no longer active');
  }, log);
  const idle = setTimeout(() => socket.close(CLOSE_IDLE, 'No message within 2.5 heartbeats'), idleTimeoutMs);
  socket.on('message', (data, isBinary) => {
    idle.refresh();
    const message = parseClientMessage(isBinary ? null : toText(data));
    if ('error' in message) return send({ type: 'error', code: 'bad_message', message: message.error });
    if (message.type === 'ping') return send({ type: 'pong' });
    send({ type: 'error', code: 'bad_message', message: 'This socket follows one booking: it cannot subscribe to anything else' });
  });
  socket.on('close', () => {
    isClosed = true;
    clearTimeout(idle);
    stop();
  });
}

type ConnectionOptions = { idleTimeoutMs: number; sessionCheckMs: number; log: FastifyRequest['log'] };

/** When the token stops being valid: its `exp`, or the session's own end if that comes first. */
function tokenEndsAt(token: string, auth: AuthContext): number {
  const { exp } = decodeJwt(token); // verified already; verifyAccessToken requires exp
  return Math.min((exp ?? 0) * 1000, auth.sessionExpiresAt.getTime());
}

/** One socket's life: messages handled one at a time in arrival order, one subscription at most. */
function serveConnection(
  ctx: AppContext,
  socket: Socket,
  token: string,
  auth: AuthContext,
  { idleTimeoutMs, sessionCheckMs, log }: ConnectionOptions,
): void {
  let unsubscribe: (() => void) | null = null;
  let isClosed = false;
  let pending = Promise.resolve();
  const endSocket = (reason: string) => {
    if (!isClosed) socket.close(CLOSE_UNAUTHORIZED, reason);
  };

  // Expiry: a timer at the token's end (the app's clock, so a frozen test clock counts too).
  const endsAt = tokenEndsAt(token, auth);
  const expired = () => endSocket('Session expired: sign in again');
  let expiry: NodeJS.Timeout | null = null;
  const armExpiry = () => {
    const left = endsAt - ctx.clock.now().getTime();
    if (left <= 0) return expired();
    expiry = left > MAX_TIMER_MS ? setTimeout(armExpiry, MAX_TIMER_MS) : setTimeout(expired, left);
  };
  armExpiry();
  // Sign-out on any node: the hub hears it on its session channel.
  const stopWatching = ctx.realtime?.watchSession?.(auth.sessionId, () => endSocket('Signed out: sign in again')) ?? null;
  // Any other end of the session (suspension, a deactivated member, a password reset): found here.
  const sessionCheck = setInterval(() => {
    verifyAccessToken(ctx, token)
      .then((live) => {
        if (!live) endSocket('Session ended: sign in again');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'realtime session check failed'));
  }, sessionCheckMs);

  const send = senderOf(socket);
  const idle = setTimeout(() => socket.close(CLOSE_IDLE, 'No message within 2.5 heartbeats'), idleTimeoutMs);

  const subscribe = async (message: Extract<RealtimeClientMessage, { type: 'subscribe' }>) => {
    const subscribeTo = ctx.realtime?.subscribe;
    if (!subscribeTo) {
      send({ type: 'error', code: 'unavailable', message: 'Live updates are not available' });
      socket.close(CLOSE_UNAVAILABLE, 'Live updates are not available');
      return;
    }
    const decision = await authorizeSubscription(ctx, token, { orgId: message.orgId, siteId: message.siteId ?? null });
    if (isClosed) return;
    if (decision.outcome === 'signed_out') {
      socket.close(CLOSE_UNAUTHORIZED, 'Session ended: sign in again');
      return;
    }
    if (decision.outcome === 'not_found') {
      send({ type: 'error', code: 'not_found', message: decision.message });
      return;
    }
    unsubscribe?.();
    unsubscribe = subscribeTo(decision.filter, (event) => send({ type: 'event', event }));
    send({ type: 'subscribed', ...decision.filter });
  };

  const handle = async (text: string | null) => {
    const message = parseClientMessage(text);
    if ('error' in message) return send({ type: 'error', code: 'bad_message', message: message.error });
    if (message.type === 'ping') return send({ type: 'pong' });
    await subscribe(message);
  };

  // Listeners attached synchronously (the plugin drops messages that arrive before them).
  socket.on('message', (data, isBinary) => {
    idle.refresh();
    const text = isBinary ? null : toText(data);
    pending = pending
      .then(() => handle(text))
      .catch((error: unknown) => {
        log.error({ err: error }, 'realtime message failed');
        send({ type: 'error', code: 'internal', message: 'Something went wrong; please try again' });
      });
  });
  socket.on('close', () => {
    isClosed = true;
    clearTimeout(idle);
    if (expiry) clearTimeout(expiry);
    clearInterval(sessionCheck);
    stopWatching?.();
    unsubscribe?.();
    unsubscribe = null;
  });
}

function toText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

function parseClientMessage(text: string | null): RealtimeClientMessage | { error: string } {
  if (text === null) return { error: 'Messages must be JSON text' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: 'Messages must be JSON text' };
  }
  const parsed = realtimeClientMessageSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return { error: `Not a valid message: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ')}` };
}

export default realtimeRoutes;
