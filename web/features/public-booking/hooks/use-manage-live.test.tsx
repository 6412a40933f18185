import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocketLike } from '../../../lib/realtime';
import { publicBookingKeys } from '../api/paths';
import { useManageLive } from './use-manage-live';

// The driver's socket on the manage page: opened with the manage token as its subprotocol, each
// message makes the manage view stale (never its availability), it reconnects on the spec's
// schedule, and a refused link (4401) or a withdrawn booking (4404) is not retried.

const TOKEN = 'manage-token-aaaaaaaaaaaaaaaaaaaa';

class FakeSocket implements WebSocketLike {
  static created: FakeSocket[] = [];
  readyState = 0;
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    FakeSocket.created.push(this);
  }
  send() {}
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

describe('useManageLive', () => {
  let queryClient: QueryClient;
  let invalidated: unknown[];
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const mount = (isEnabled = true) => renderHook(() => useManageLive(TOKEN, isEnabled, { WebSocket: FakeSocket, url: 'ws://test/api/realtime' }), { wrapper });

  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.created = [];
    queryClient = new QueryClient();
    invalidated = [];
    vi.spyOn(queryClient, 'invalidateQueries').mockImplementation(async (filters) => {
      invalidated.push(filters);
    });
  });
  afterEach(() => vi.useRealTimers());

  it('follows the booking by its token and refetches the manage view on its events and queue nudges', () => {
    mount();
    const socket = FakeSocket.created[0]!;
    expect(socket.protocols).toEqual([`manage.${TOKEN}`]);
    socket.open();
    // Once on opening: what changed between the page's first read and the socket is caught up.
    expect(invalidated).toEqual([{ queryKey: publicBookingKeys.managedBooking(TOKEN), exact: true }]);
    socket.receive({ type: 'queue' });
    socket.receive({ type: 'pong' });
    socket.receive({ type: 'event', event: { entity: 'booking', action: 'in_progress' } });
    expect(invalidated).toEqual([
      { queryKey: publicBookingKeys.managedBooking(TOKEN), exact: true },
      { queryKey: publicBookingKeys.managedBooking(TOKEN), exact: true },
      { queryKey: publicBookingKeys.managedBooking(TOKEN), exact: true },
    ]);
  });

  it('reconnects after 1 s, then refetches what it may have missed', () => {
    mount();
    FakeSocket.created[0]!.open();
    FakeSocket.created[0]!.drop();
    vi.advanceTimersByTime(999);
    expect(FakeSocket.created).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.created).toHaveLength(2);
    FakeSocket.created[1]!.open();
    expect(invalidated).toHaveLength(2);
  });

  it('does not retry a refused link or a withdrawn booking, and opens nothing when not live', () => {
    mount();
    FakeSocket.created[0]!.drop(4404);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.created).toHaveLength(1);
    expect(invalidated).toHaveLength(1);
    FakeSocket.created = [];
    mount(false);
    expect(FakeSocket.created).toHaveLength(0);
  });
});
