import {
  CLIENT_ERROR_DEDUPE_SECONDS,
  CLIENT_ERROR_LIMITS,
  CLIENT_ERROR_REPORTS_PER_MINUTE,
  CLIENT_ERROR_REPORTS_PER_PAGE,
  isNoiseReport,
  type ClientErrorKind,
  type ClientErrorReport,
} from '../../domain/error-monitoring-rules';
import { ApiError, currentAccessToken } from './api-client';

// Browser errors for the error-monitoring screen (issue 12): uncaught errors, unhandled promise
// rejections and the screens' error boundary report here; this sends them to POST
// /api/client-errors, throttled — one report per error a minute, at most 5 a minute and 30 a page.
// API failures are not reported: the server records its own, and the others are the caller's.

const MINUTE_MS = 60_000;
const lastSent = new Map<string, number>();
let sentTimes: number[] = [];
let sentTotal = 0;

/** What an error looks like to the API; the stacks are cut so the whole report stays under 16 KB. */
function toReport(error: unknown, kind: ClientErrorKind, componentStack?: string | null): ClientErrorReport | null {
  let name: string | null = null;
  let message: string;
  let stack: string | null = null;
  if (error instanceof Error) {
    name = error.name || null;
    message = error.message || String(error);
    stack = error.stack ?? null;
  } else if (typeof error === 'string') {
    message = error;
  } else {
    try {
      message = JSON.stringify(error) ?? String(error);
    } catch {
      message = String(error);
    }
  }
  message = message.trim();
  if (!message) return null;
  return {
    kind,
    name: name?.slice(0, CLIENT_ERROR_LIMITS.name) ?? null,
    message: message.slice(0, CLIENT_ERROR_LIMITS.message),
    stack: stack ? stack.slice(0, 6000) : null,
    componentStack: componentStack ? componentStack.slice(0, 3000) : null,
    url: window.location.href.slice(0, CLIENT_ERROR_LIMITS.url),
  };
}

/** True when the report may go now (and counts it): not sent within the minute, under the rates. */
function mayReport(report: ClientErrorReport, now: number): boolean {
  if (sentTotal >= CLIENT_ERROR_REPORTS_PER_PAGE) return false;
  sentTimes = sentTimes.filter((at) => now - at < MINUTE_MS);
  if (sentTimes.length >= CLIENT_ERROR_REPORTS_PER_MINUTE) return false;
  const key = `${report.name}|${report.message}|${report.stack?.split('\n')[1] ?? ''}`;
  const last = lastSent.get(key);
  if (last !== undefined && now - last < CLIENT_ERROR_DEDUPE_SECONDS * 1000) return false;
  lastSent.set(key, now);
  sentTimes.push(now);
  sentTotal += 1;
  return true;
}

/** Reports an error the app did not handle. Never throws, never reports its own failure. */
export function reportError(error: unknown, kind: ClientErrorKind, options: { componentStack?: string | null } = {}): void {
  try {
    if (error instanceof ApiError) return;
    const report = toReport(error, kind, options.componentStack);
    if (!report || isNoiseReport(report) || !mayReport(report, Date.now())) return;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const token = currentAccessToken();
    if (token) headers.authorization = `Bearer ${token}`;
    // keepalive: the report still goes when the error ends the page (a reload, a navigation).
    void fetch('/api/client-errors', { method: 'POST', headers, body: JSON.stringify(report), keepalive: true }).catch(() => undefined);
  } catch {
    // Reporting must never become the error.
  }
}

/** Listens for uncaught errors and unhandled rejections; returns the function that stops it. */
export function installErrorReporter(): () => void {
  const onError = (event: ErrorEvent) => reportError(event.error ?? event.message, 'error');
  const onRejection = (event: PromiseRejectionEvent) => reportError(event.reason, 'unhandledrejection');
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
