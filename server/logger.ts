import pino, { type Logger } from 'pino';
import { sanitizeUrl } from '../domain/error-monitoring-rules';

/** The part of a Fastify request the request log keeps. */
type LoggedRequest = {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

/**
 * The request log's `req`: Fastify's own fields, with the URL as sanitizeUrl keeps it — the values
 * of sensitive query parameters (`?access_token=` of the realtime socket, any `token`, `key`,
 * `secret`…) become '[redacted]' and a manage link's or invitation's token in the path ':token'.
 * A log reader must not be able to act as anyone.
 */
export function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? sanitizeUrl(request.url) : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

const serializers = { req: serializeRequest };

/**
 * The server's logger: human-readable lines on a terminal, JSON lines otherwise (a log collector,
 * a file). pino-pretty runs as a stream in this process, not as a transport: a transport's worker
 * thread cannot load it from the server bundle, which is why `npm start` used to print JSON.
 * Fastify merges these serializers over its own, so every request line goes through serializeRequest.
 */
export async function createLogger(level: string, options: { pretty: boolean; destination?: NodeJS.WritableStream }): Promise<Logger> {
  const destination = options.destination ?? process.stdout;
  if (!options.pretty) return pino({ level, serializers }, destination);
  const pretty = (await import('pino-pretty')).default({
    translateTime: 'HH:MM:ss',
    ignore: 'pid,hostname',
    colorize: destination === process.stdout,
    destination,
    sync: true,
  });
  return pino({ level, serializers }, pretty);
}
