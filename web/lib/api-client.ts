import { STORAGE_KEYS } from '../../domain/constants';

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

export type ApiOptions = Omit<RequestInit, 'body'> & {
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  /** Skip the Authorization header (public endpoints). */
  anonymous?: boolean;
  /**
   * On a 401 for a request that carried a token, ask the auth layer to refresh the session once
   * and retry. Default true; sign-out turns it off.
   */
  retryOnUnauthorized?: boolean;
};

/** Set by the auth provider: refreshes the session, resolving true when a new token is stored. */
type UnauthorizedHandler = () => Promise<boolean>;
let unauthorizedHandler: UnauthorizedHandler | null = null;

export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const { body, anonymous, retryOnUnauthorized = true, headers, ...rest } = options;
  const init: RequestInit = { ...rest, headers: new Headers(headers) };
  const h = init.headers as Headers;
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    h.set('content-type', 'application/json');
    init.body = JSON.stringify(body);
  }
  const token = anonymous ? null : currentAccessToken();
  if (token && !h.has('authorization')) h.set('authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  if (response.status === 401 && token && retryOnUnauthorized && unauthorizedHandler) {
    if (await unauthorizedHandler()) {
      return api<T>(path, { ...options, retryOnUnauthorized: false });
    }
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
    throw new ApiError(response.status, err?.code ?? 'http_error', err?.message ?? `Request failed (${response.status})`, err?.details);
  }
  return data as T;
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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
