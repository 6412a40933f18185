import pino, { type Logger } from 'pino';

/**
 * The server's logger: human-readable lines on a terminal, JSON lines otherwise (a log collector,
 * a file). pino-pretty runs as a stream in this process, not as a transport: a transport's worker
 * thread cannot load it from the server bundle, which is why `npm start` used to print JSON.
 */
export async function createLogger(level: string, options: { pretty: boolean; destination?: NodeJS.WritableStream }): Promise<Logger> {
  const destination = options.destination ?? process.stdout;
  if (!options.pretty) return pino({ level }, destination);
  const pretty = (await import('pino-pretty')).default({
    translateTime: 'HH:MM:ss',
    ignore: 'pid,hostname',
    colorize: destination === process.stdout,
    destination,
    sync: true,
  });
  return pino({ level }, pretty);
}
