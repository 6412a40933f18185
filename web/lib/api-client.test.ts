import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../domain/constants';
import { ApiError, apiCall, apiPath, fetchApiFile, setUnauthorizedHandler } from './api-client';

const json = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function stubFetch(...responses: Response[]) {
  const fetchMock = vi.fn(async () => responses.shift() ?? json(500, { error: { code: 'x', message: 'no more answers' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
/** The stored session's token (Node has no localStorage: a small one stands in). */
function storeToken(token: string | null) {
  const items = new Map<string, string>();
  if (token) items.set(STORAGE_KEYS.session, JSON.stringify({ access_token: token }));
  vi.stubGlobal('localStorage', { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) });
}
const call = (fetchMock: ReturnType<typeof stubFetch>, index = 0) => {
  const [url, init] = fetchMock.mock.calls[index] as unknown as [string, RequestInit];
  return { url, init, headers: new Headers(init.headers) };
};

describe('apiPath', () => {
  it('fills the path parameters, encoded', () => {
    expect(apiPath('GET /api/orgs/:orgId/bookings/:bookingId', { params: { orgId: 'o 1', bookingId: 'a/b' } })).toBe('/api/orgs/o%201/bookings/a%2Fb');
  });

  it('writes the query: arrays repeat their key; undefined, null and empty values are left out', () => {
    expect(
      apiPath('GET /api/orgs/:orgId/bookings', {
        params: { orgId: 'o' },
        query: { status: ['pending', 'approved'], q: '', siteId: undefined, page: 2 },
      }),
    ).toBe('/api/orgs/o/bookings?status=pending&status=approved&page=2');
    expect(apiPath('GET /api/public/booking-info')).toBe('/api/public/booking-info');
  });

  it('refuses a missing parameter instead of calling a wrong URL', () => {
    expect(() => apiPath('GET /api/orgs/:orgId/bookings', { params: {} as { orgId: string } })).toThrow(/orgId is missing/);
  });
});

describe('apiCall', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setUnauthorizedHandler(null);
  });

  it('sends the route’s method, a JSON body and the session’s token, and answers the JSON', async () => {
    storeToken('tok');
    const fetchMock = stubFetch(json(200, { id: 'b1' }));
    const answer = await apiCall('POST /api/orgs/:orgId/bookings/:bookingId/transitions', {
      params: { orgId: 'o', bookingId: 'b1' },
      body: { to: 'approved', version: 1 },
    });
    expect(answer).toEqual({ id: 'b1' });
    const { url, init, headers } = call(fetchMock);
    expect([url, init.method]).toEqual(['/api/orgs/o/bookings/b1/transitions', 'POST']);
    expect(JSON.parse(String(init.body))).toEqual({ to: 'approved', version: 1 });
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('authorization')).toBe('Bearer tok');
  });

  it('sends FormData as it is (multipart) and no token for an anonymous call', async () => {
    storeToken('tok');
    const fetchMock = stubFetch(json(201, { id: 'b' }));
    const form = new FormData();
    form.append('data', '{}');
    await apiCall('POST /api/public/bookings', { body: form, anonymous: true, headers: { 'Idempotency-Key': 'key-12345' } });
    const { init, headers } = call(fetchMock);
    expect(init.body).toBe(form);
    expect(headers.get('content-type')).toBeNull();
    expect(headers.get('authorization')).toBeNull();
    expect(headers.get('idempotency-key')).toBe('key-12345');
  });

  it('answers undefined for 204 and throws the API’s error otherwise', async () => {
    storeToken(null);
    stubFetch(new Response(null, { status: 204 }), json(409, { error: { code: 'stale_version', message: 'Changed meanwhile', details: { version: 3 } } }));
    await expect(apiCall('DELETE /api/orgs/:orgId/webhooks/:webhookId', { params: { orgId: 'o', webhookId: 'w' } })).resolves.toBeUndefined();
    const failure = apiCall('GET /api/orgs/:orgId/bookings', { params: { orgId: 'o' } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 409, code: 'stale_version', message: 'Changed meanwhile', details: { version: 3 } });
  });

  it('refreshes the session once on a 401 and sends the request again with the new token', async () => {
    storeToken('old');
    setUnauthorizedHandler(async () => {
      localStorage.setItem(STORAGE_KEYS.session, JSON.stringify({ access_token: 'new' }));
      return true;
    });
    const fetchMock = stubFetch(json(401, { error: { code: 'unauthorized', message: 'Expired' } }), json(200, { items: [] }));
    await expect(apiCall('GET /api/orgs/:orgId/team', { params: { orgId: 'o' } })).resolves.toEqual({ items: [] });
    expect(call(fetchMock, 1).headers.get('authorization')).toBe('Bearer new');
  });

  it('turns a network failure into a status-0 ApiError', async () => {
    storeToken(null);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiCall('GET /api/auth/settings')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});

describe('fetchApiFile', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('answers the file, and the server’s message (else the given one) when it fails', async () => {
    storeToken(null);
    stubFetch(
      new Response('a,b\n', { status: 200, headers: { 'content-type': 'text/csv' } }),
      json(403, { error: { code: 'forbidden', message: 'Organization admins only' } }),
      new Response('gateway', { status: 502 }),
    );
    const params = { orgId: 'o' };
    await expect((await fetchApiFile('GET /api/orgs/:orgId/audit/csv', { params, failure: 'No CSV' })).text()).resolves.toBe('a,b\n');
    await expect(fetchApiFile('GET /api/orgs/:orgId/audit/csv', { params, failure: 'No CSV' })).rejects.toMatchObject({ status: 403, message: 'Organization admins only' });
    await expect(fetchApiFile('GET /api/orgs/:orgId/audit/csv', { params, failure: 'No CSV' })).rejects.toMatchObject({ status: 502, code: 'download_failed', message: 'No CSV (502)' });
  });
});
