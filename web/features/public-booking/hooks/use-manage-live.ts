import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { REALTIME_HEARTBEAT_MS, type RealtimeServerMessage } from '../../../../domain/realtime';
import { reconnectDelay, type WebSocketConstructor, type WebSocketLike } from '../../../lib/realtime';
import { publicBookingKeys } from '../api/paths';

// The driver's live page (issue 26): one socket for one booking, opened with its manage token as
// the subprotocol `manage.<token>` (server/realtime/manage-socket.ts). The server sends only this
// booking's events and a bare `{ type: 'queue' }` while it waits; each makes the page ask for the
// manage view again, which is where the data comes from. Reconnects on the spec's schedule
// (1, 2, 5, 10 s, then 10 s). Refetches on every open: the server follows the booking from the
// moment the socket opens, and what was sent before (since the page's first read, or while away
// after a lost connection) is lost.

/** The server refused the link (4401) or the booking is no longer active (4404): do not retry. */
const FINAL_CLOSE_CODES = new Set([4401, 4404]);

export type ManageLiveOptions = { WebSocket?: WebSocketConstructor; url?: string };

function defaultUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api/realtime`;
}

/** Keeps the manage view of `token` live while `isEnabled` (the booking's day, not finished). */
export function useManageLive(token: string, isEnabled: boolean, options: ManageLiveOptions = {}): void {
  const queryClient = useQueryClient();
  const { WebSocket: Socket, url } = options;
  useEffect(() => {
    if (!isEnabled || !token) return;
    const refetch = () => void queryClient.invalidateQueries({ queryKey: publicBookingKeys.managedBooking(token), exact: true });
    let socket: WebSocketLike | null = null;
    let heartbeat: ReturnType<typeof setInterval> | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let isStopped = false;

    const connect = () => {
      const Constructor = Socket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
      const next = new Constructor(url ?? defaultUrl(), [`manage.${token}`]);
      socket = next;
      next.onopen = () => {
        attempt = 0;
        refetch();
        heartbeat = setInterval(() => {
          if (next.readyState === 1) next.send(JSON.stringify({ type: 'ping' }));
        }, REALTIME_HEARTBEAT_MS);
      };
      next.onmessage = (message) => {
        let data: RealtimeServerMessage;
        try {
          data = JSON.parse(String(message.data)) as RealtimeServerMessage;
        } catch {
          return;
        }
        if (data.type === 'event' || data.type === 'queue') refetch();
      };
      next.onclose = (event) => {
        if (heartbeat) clearInterval(heartbeat);
        heartbeat = null;
        socket = null;
        if (isStopped) return;
        if (FINAL_CLOSE_CODES.has(event.code)) return refetch();
        retry = setTimeout(() => {
          retry = null;
          connect();
        }, reconnectDelay(attempt));
        attempt += 1;
      };
      // Always followed by close, which decides what happens next.
      next.onerror = () => undefined;
    };

    connect();
    return () => {
      isStopped = true;
      if (retry) clearTimeout(retry);
      if (heartbeat) clearInterval(heartbeat);
      const last = socket as WebSocketLike | null;
      if (last) {
        last.onclose = null;
        last.close(1000, 'Leaving');
      }
    };
  }, [token, isEnabled, queryClient, Socket, url]);
}
