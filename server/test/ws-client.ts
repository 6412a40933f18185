import { createRequire } from 'node:module';
import type { RealtimeClientMessage, RealtimeServerMessage } from '../../domain/realtime';

// A WebSocket client for tests. Node 20 has no global WebSocket, and `ws` (present as a dependency
// of @fastify/websocket) ships no types: it is loaded untyped and given the few members used here.

type WsClient = {
  readonly protocol: string;
  send: (data: string) => void;
  close: (code?: number) => void;
  terminate: () => void;
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
};
type WsConstructor = new (url: string, protocols?: string[]) => WsClient;
const WebSocket = createRequire(import.meta.url)('ws') as WsConstructor;

export type TestSocket = {
  /** The subprotocol the server chose ('' when none). */
  protocol: string;
  send: (message: RealtimeClientMessage | string) => void;
  /** The next message not yet taken that satisfies `match`; rejects after `timeoutMs`. */
  next: (match?: (message: RealtimeServerMessage) => boolean, timeoutMs?: number) => Promise<RealtimeServerMessage>;
  /** Every message received so far, taken or not. */
  received: RealtimeServerMessage[];
  closed: Promise<{ code: number; reason: string }>;
  close: () => void;
};

/** Opens a socket and resolves once it is open (or closed straight away, e.g. with 4401). */
export function openTestSocket(url: string, protocols?: string[]): Promise<TestSocket> {
  const ws = new WebSocket(url, protocols);
  const received: RealtimeServerMessage[] = [];
  const unread: RealtimeServerMessage[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString('utf8')) as RealtimeServerMessage;
    received.push(message);
    unread.push(message);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  const socket: TestSocket = {
    get protocol() {
      return ws.protocol;
    },
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: (match = () => true, timeoutMs = 2_000) =>
      new Promise((resolve, reject) => {
        const take = () => {
          const index = unread.findIndex(match);
          if (index < 0) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(unread.splice(index, 1)[0]);
          return true;
        };
        const check = () => void take();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms; received ${JSON.stringify(received)}`));
        }, timeoutMs);
        if (!take()) waiters.add(check);
      }),
    received,
    closed,
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve(socket));
    ws.on('error', reject);
    void closed.then(() => resolve(socket));
  });
}
