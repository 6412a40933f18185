import { vi } from 'vitest';

// The API as a component test sees it: `fetch` answers from a table of routes ('METHOD /path',
// the query string ignored) and records every call, so a test can assert what the screen sent.
// A route missing from the table answers 500, which fails the test through the screen.

export type ApiCall = { method: string; path: string; url: string; headers: Headers; body: unknown };
export type ApiReply = { status?: number; body?: unknown };
export type ApiRoute = (call: ApiCall) => ApiReply | Promise<ApiReply>;

/** The API's error shape: { error: { code, message, details? } }. */
export const apiError = (status: number, code: string, message: string, details?: unknown): ApiReply => ({
  status,
  body: { error: { code, message, ...(details === undefined ? {} : { details }) } },
});

function bodyOf(init: RequestInit | undefined): unknown {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return JSON.parse(body) as unknown;
  return body; // FormData and the like, as sent
}

/** Replaces the global fetch for this test (the setup file restores it); answers the recorded calls. */
export function fakeApi(routes: Record<string, ApiRoute>): { calls: ApiCall[]; callsTo: (route: string) => ApiCall[] } {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.split('?')[0]!;
    const call: ApiCall = { method, path, url, headers: new Headers(init?.headers), body: bodyOf(init) };
    calls.push(call);
    const route = routes[`${method} ${path}`];
    const reply = route ? await route(call) : apiError(500, 'no_route', `No fake route for ${method} ${path}`);
    const status = reply.status ?? 200;
    return new Response(reply.body === undefined || status === 204 ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return { calls, callsTo: (route) => calls.filter((c) => `${c.method} ${c.path}` === route) };
}
