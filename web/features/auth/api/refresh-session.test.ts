import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshSession } from './refresh-session';

const session = {
  access_token: 'new-access',
  refresh_token: 'new-refresh',
  token_type: 'bearer',
  expires_in: 3600,
  expires_at: 2_000_000_000,
  user: { id: 'u', email: 'u@example.test', fullName: null, platformRole: null },
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('refreshSession', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends the refresh token and returns the new session', async () => {
    const fetchMock = vi.fn(async () => json(200, session));
    vi.stubGlobal('fetch', fetchMock);
    await expect(refreshSession('old-refresh')).resolves.toEqual(session);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/token?grant_type=refresh_token');
    expect(JSON.parse(String(init.body))).toEqual({ refresh_token: 'old-refresh' });
  });

  it('retries gateway errors with backoff from 200 ms', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(503, { error: { code: 'unavailable', message: 'down' } }))
      .mockResolvedValueOnce(json(502, { error: { code: 'bad_gateway', message: 'down' } }))
      .mockResolvedValueOnce(json(200, session));
    vi.stubGlobal('fetch', fetchMock);
    const result = refreshSession('old-refresh');
    await vi.advanceTimersByTimeAsync(200);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(400);
    await expect(result).resolves.toEqual(session);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('gives up at once on a rejected refresh token', async () => {
    const fetchMock = vi.fn(async () => json(401, { error: { code: 'invalid_grant', message: 'Invalid refresh token' } }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(refreshSession('stolen')).rejects.toMatchObject({ status: 401, message: 'Invalid refresh token' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('stops retrying after the 30 s window', async () => {
    const fetchMock = vi.fn(async () => json(504, { error: { code: 'timeout', message: 'Gateway timeout' } }));
    vi.stubGlobal('fetch', fetchMock);
    const result = refreshSession('old-refresh');
    const assertion = expect(result).rejects.toMatchObject({ status: 504 });
    await vi.advanceTimersByTimeAsync(31_000);
    await assertion;
    // 200 + 400 + … + 12 800 ms = 25.4 s; the next wait (25.6 s) would leave the window.
    expect(fetchMock).toHaveBeenCalledTimes(8);
  });
});
