import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local webhook receiver for the tests and the bench: records every request (headers and raw
// body) and answers the status it is told to. `next(n)` resolves once n requests have arrived.

export type ReceivedHook = { path: string; headers: http.IncomingHttpHeaders; body: string };

export type TestReceiver = {
  url: string;
  received: ReceivedHook[];
  /** The status the next requests are answered with. */
  respondWith: (status: number) => void;
  /** Resolves when `count` requests in all (since the last reset) have arrived. */
  waitFor: (count: number) => Promise<ReceivedHook[]>;
  /** Forgets what arrived (between tests). */
  reset: () => void;
  close: () => Promise<void>;
};

export async function startTestReceiver(options: { record?: boolean } = {}): Promise<TestReceiver> {
  const received: ReceivedHook[] = [];
  let total = 0;
  let status = 200;
  const waiters: Array<{ count: number; resolve: (hooks: ReceivedHook[]) => void }> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      total++;
      if (options.record ?? true) received.push({ path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
      for (const waiter of [...waiters]) {
        if (total >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(received);
        }
      }
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    reset: () => {
      received.length = 0;
      total = 0;
    },
    respondWith: (next) => {
      status = next;
    },
    waitFor: (count) => (total >= count ? Promise.resolve(received) : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
