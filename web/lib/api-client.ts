import type { z } from 'zod';
import type { ApiContract } from '../../domain/api-contract';
import { STORAGE_KEYS } from '../../domain/constants';

// The web's only way to the API: `apiCall('GET /api/orgs/:orgId/bookings', { params, query })`.
// The route is a key of the contract (domain/api-contract.ts); its params, query, body and answer
// are typed from the zod schemas the server validates and serializes with, so a wrong path, a
// wrong body or a wrong answer type fails `npm run typecheck` (web/lib/api-contract.typetest.ts).
// Only the contract's TYPES are imported: no schema reaches a bundle through this file.

/** The one error shape of the API: { error: { code, message, details? } }. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type StoredSession = { access_token: string };

/** The bearer token of the stored session, if any (the auth provider keeps it fresh). */
export function currentAccessToken(): string | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.session);
    return raw ? (JSON.parse(raw) as StoredSession).access_token : null;
  } catch {
    return null;
  }
}

/** Set by the auth provider: refreshes the session, resolving true when a new token is stored. */
type UnauthorizedHandler = () => Promise<boolean>;
let unauthorizedHandler: UnauthorizedHandler | null = null;

export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

// ——— The contract, as types ———

/** Every operation of the API: `'GET /api/orgs/:orgId/bookings'`, … */
export type ApiRoute = keyof ApiContract & string;
type Entry<R extends ApiRoute> = ApiContract[R];

/** The operations that answer JSON, and those that answer a file (CSV, PDF, an image). */
export type ApiJsonRoute = { [R in ApiRoute]: Entry<R> extends { response: object } ? R : never }[ApiRoute];
export type ApiFileRoute = { [R in ApiRoute]: Entry<R> extends { produces: readonly string[] } ? R : never }[ApiRoute];

type PathOf<R extends string> = R extends `${string} ${infer Path}` ? Path : never;
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;
/** What a schema of the entry takes (z.input: before defaults and transforms), or never without one. */
type InputOf<E, Key extends string> = E extends { readonly [K in Key]: infer S } ? (S extends z.ZodType ? z.input<S> : never) : never;

/** The path parameters: every `:name` of the path, narrowed by the params schema where it says more (an enum). */
export type ApiParams<R extends ApiRoute> = [ParamNames<PathOf<R>>] extends [never]
  ? never
  : { [Name in ParamNames<PathOf<R>>]: string } & ([InputOf<Entry<R>, 'params'>] extends [never] ? unknown : InputOf<Entry<R>, 'params'>);
export type ApiQuery<R extends ApiRoute> = InputOf<Entry<R>, 'querystring'>;
/** The JSON body, or FormData for a multipart upload. */
export type ApiBody<R extends ApiRoute> = [InputOf<Entry<R>, 'body'>] extends [never]
  ? Entry<R> extends { consumes: readonly (infer Type)[] }
    ? 'multipart/form-data' extends Type
      ? FormData
      : never
    : never
  : InputOf<Entry<R>, 'body'>;

type SuccessStatus = 200 | 201 | 202 | 204;
type ResponsesOf<R extends ApiRoute> = Entry<R> extends { response: infer Map } ? Map : never;
/** The answer: the response schema's output for each success status (204: no content). */
export type ApiResponse<R extends ApiJsonRoute> = {
  [Status in keyof ResponsesOf<R> & SuccessStatus]: Status extends 204
    ? undefined
    : ResponsesOf<R>[Status] extends z.ZodType
      ? z.output<ResponsesOf<R>[Status]>
      : never;
}[keyof ResponsesOf<R> & SuccessStatus];

/** A part the operation does not take is refused; one whose fields are all optional may be left out. */
type Part<Key extends string, T> = [T] extends [never]
  ? { [K in Key]?: never }
  : undefined extends T
    ? { [K in Key]?: T }
    : object extends T
      ? { [K in Key]?: T }
      : { [K in Key]: T };

export type RequestOptions = {
  /** Skip the Authorization header (public endpoints). */
  anonymous?: boolean;
  /**
   * On a 401 for a request that carried a token, ask the auth layer to refresh the session once
   * and retry. Default true; sign-out turns it off.
   */
  retryOnUnauthorized?: boolean;
  headers?: HeadersInit;
  signal?: AbortSignal;
};
type Location<R extends ApiRoute> = Part<'params', ApiParams<R>> & Part<'query', ApiQuery<R>>;
export type ApiCallOptions<R extends ApiRoute> = Location<R> & Part<'body', ApiBody<R>> & RequestOptions;
/** The options argument, optional when nothing in it is required. */
type OptionsArg<O> = object extends O ? [options?: O] : [options: O];

// ——— Calls ———

/** The URL of an operation: its path with the parameters filled in, then the query string. */
export function apiPath<R extends ApiRoute>(route: R, ...[options]: OptionsArg<Location<R>>): string {
  const { params, query } = (options ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
  const path = pathOf(route).replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${route}: the parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
  const search = query ? searchOf(query) : '';
  return search ? `${path}?${search}` : path;
}

/** Calls a JSON operation of the API and answers what it answers; a failure throws ApiError. */
export async function apiCall<R extends ApiJsonRoute>(route: R, ...[options]: OptionsArg<ApiCallOptions<R>>): Promise<ApiResponse<R>> {
  const { params, query, body, ...request } = (options ?? {}) as ApiCallOptions<ApiRoute> & { body?: unknown };
  const init: RequestInit = { method: methodOf(route), signal: request.signal, headers: new Headers(request.headers) };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    (init.headers as Headers).set('content-type', 'application/json');
    init.body = JSON.stringify(body);
  }
  const response = await fetchWithSession(apiPath(route, { params, query } as never), init, request);
  if (response.status === 204) return undefined as ApiResponse<R>;
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) throw toApiError(response.status, data, `Request failed (${response.status})`);
  return data as ApiResponse<R>;
}

/**
 * Fetches a file operation (a CSV, a PDF, an image) with the session's token, which a plain link
 * could not carry. A failure throws ApiError with the server's message, else `failure`.
 */
export async function fetchApiFile<R extends ApiFileRoute>(
  route: R,
  options: Location<R> & { failure: string },
): Promise<Response> {
  const { failure, ...location } = options;
  const response = await fetchWithSession(apiPath(route, location as never), { method: methodOf(route) }, {});
  if (!response.ok) {
    const data = await response.json().catch(() => undefined);
    throw toApiError(response.status, data, `${failure} (${response.status})`, 'download_failed');
  }
  return response;
}

/** The file name the server gave in Content-Disposition, else `fallback`. */
export function serverFileName(response: Response, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/** Saves a fetched file through a temporary link under `fileName`; answers the name. */
export async function saveFile(response: Response, fileName: string): Promise<string> {
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

/** The message to show for a failed call: the API's message, else the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError || error instanceof Error) return error.message || fallback;
  return fallback;
}

/** Failures a person caused (4xx) as opposed to the network or the server (0, 5xx). */
export function isClientError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

// ——— Internals ———

function methodOf(route: string): string {
  return route.slice(0, route.indexOf(' '));
}

function pathOf(route: string): string {
  return route.slice(route.indexOf(' ') + 1);
}

/** Arrays repeat their key; undefined, null and '' are left out (the server's defaults apply). */
function searchOf(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null && item !== '') search.append(key, String(item));
    }
  }
  return search.toString();
}

/** The request with the session's bearer token; a 401 refreshes the session once and retries. */
async function fetchWithSession(path: string, init: RequestInit, options: Pick<RequestOptions, 'anonymous' | 'retryOnUnauthorized'>): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = options.anonymous ? null : currentAccessToken();
  if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  if (response.status === 401 && token && (options.retryOnUnauthorized ?? true) && unauthorizedHandler) {
    if (await unauthorizedHandler()) return fetchWithSession(path, init, { ...options, retryOnUnauthorized: false });
  }
  return response;
}

function toApiError(status: number, data: unknown, fallbackMessage: string, fallbackCode = 'http_error'): ApiError {
  const error = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
  return new ApiError(status, error?.code ?? fallbackCode, error?.message ?? fallbackMessage, error?.details);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
