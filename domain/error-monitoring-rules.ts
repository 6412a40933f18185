// Error monitoring's rules (issue 12), without zod: the browser's reporter (web/lib/error-reporter.ts)
// runs on every page, so it takes only this file. The constants, what counts as noise, how a
// fingerprint is made (docs/decisions/019-error-monitoring.md) and what is kept of a request.
// The API's schemas are in domain/error-monitoring.ts.

export const ERROR_SOURCES = ['server', 'browser'] as const;
export type ErrorSource = (typeof ERROR_SOURCES)[number];

export const ERROR_GROUP_STATUSES = ['open', 'resolved'] as const;
export type ErrorGroupStatus = (typeof ERROR_GROUP_STATUSES)[number];

export const ERROR_STATUS_FILTERS = ['open', 'resolved', 'all'] as const;
export type ErrorStatusFilter = (typeof ERROR_STATUS_FILTERS)[number];

export const ERROR_GROUPS_PAGE_SIZE = 20;
export const ERROR_GROUPS_PAGE_SIZE_MAX = 100;
/** Events listed on a group's detail, newest first. */
export const ERROR_GROUP_RECENT_EVENTS = 20;
/** Top stack frames that make a fingerprint. */
export const FINGERPRINT_FRAMES = 3;
/** The fingerprint: 32 lower-case hex digits (128 bits of SHA-256). */
export const FINGERPRINT_PATTERN = /^[0-9a-f]{32}$/;

// --- Browser reports ------------------------------------------------------------------------------

/** Where the browser caught it: window 'error', 'unhandledrejection', or a screen's error boundary. */
export const CLIENT_ERROR_KINDS = ['error', 'unhandledrejection', 'render'] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

export const CLIENT_ERROR_LIMITS = { name: 200, message: 2000, stack: 8000, componentStack: 4000, url: 2000 } as const;
/** POST /api/client-errors refuses bodies over this many bytes (413). */
export const CLIENT_ERROR_MAX_BYTES = 16 * 1024;
/** Per IP and minute (429 beyond). */
export const CLIENT_ERROR_RATE_PER_MINUTE = 30;
/** The same error from the same address within this window is stored once (server), reported once (browser). */
export const CLIENT_ERROR_DEDUPE_SECONDS = 60;
/** A page sends at most this many reports per minute, and this many in all. */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 5;
export const CLIENT_ERROR_REPORTS_PER_PAGE = 30;


/** A browser report as POST /api/client-errors takes it (validated by clientErrorReportSchema). */
export type ClientErrorReport = {
  kind: ClientErrorKind;
  name?: string | null;
  message: string;
  stack?: string | null;
  componentStack?: string | null;
  url: string;
};

/**
 * Reports that say nothing we can act on: the browser's benign ResizeObserver warning, the opaque
 * 'Script error.' of a cross-origin script, and errors whose every frame is a browser extension's.
 */
export function isNoiseReport(report: { message: string; stack?: string | null }): boolean {
  const message = report.message.trim();
  if (/^ResizeObserver loop/i.test(message)) return true;
  if (/^(Uncaught )?Script error\.?$/i.test(message)) return true;
  const frames = (report.stack ?? '').split('\n').filter((line) => /:\d+(:\d+)?\)?\s*$/.test(line));
  return frames.length > 0 && frames.every((line) => /(chrome|moz|safari(-web)?)-extension:\/\//.test(line));
}

// --- Fingerprints ---------------------------------------------------------------------------------

const UUID_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * The message with what differs between occurrences of one fault taken out: ids, e-mail
 * addresses, URLs, long hex strings and numbers; a failed query's parameters; runs of white space.
 */
export function normaliseMessage(message: string): string {
  return message
    .replace(/\bparams:[\s\S]*$/i, 'params: <params>')
    .replace(UUID_TEXT, '<id>')
    .replace(/[^\s@<>()'"]+@[^\s@<>()'"]+\.[a-z]{2,}/gi, '<email>')
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'")]+/gi, '<url>')
    .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, '<hex>')
    .replace(/\d+(\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
}

/** A file of a frame without origin, query, absolute prefix or build hash: 'assets/index.js', 'server/modules/x.ts'. */
function normaliseFile(file: string): string {
  let f = file
    .trim()
    .replace(/^file:\/\//, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, '')
    .replace(/[?#].*$/, '');
  // Our own code from its project folder on; a dependency from node_modules on; else the file name.
  const rooted = /(?:^|\/)((?:server|domain|web|scripts|node_modules)\/.*)$/.exec(f);
  if (rooted) f = rooted[1]!;
  else if (f.startsWith('/')) f = f.replace(/^.*\//, '');
  // Vite's content hash ('index-B1x_2Yz9.js') changes with every release.
  return f.replace(/-[A-Za-z0-9_-]{8}(\.m?js)$/, '$1');
}

type Frame = { fn: string; file: string };

/** The frames of a V8 ('    at fn (file:1:2)') or Firefox/Safari ('fn@file:1:2') stack, line and column left out. */
export function parseStackFrames(stack: string | null | undefined): Frame[] {
  if (!stack) return [];
  const frames: Frame[] = [];
  for (const raw of stack.split('\n')) {
    const line = raw.trim();
    let fn = '';
    let location = '';
    const v8 = /^at\s+(?:(.+?)\s+\((.+)\)|(.+))$/.exec(line);
    const gecko = /^([^@\s]*)@(.+:\d+(?::\d+)?)$/.exec(line);
    if (v8) {
      fn = v8[1] ?? '';
      location = v8[2] ?? v8[3] ?? '';
    } else if (gecko) {
      fn = gecko[1] ?? '';
      location = gecko[2] ?? '';
    } else continue;
    const file = normaliseFile(location.replace(/(:\d+){1,2}$/, ''));
    if (!file) continue;
    frames.push({ fn: fn.replace(/^async\s+/, '').replace(/^new\s+/, ''), file });
  }
  return frames;
}

/**
 * The top frames that name the fault: the runtime's own frames ('node:internal/…', native) are
 * skipped, and dependency frames too when any of our code is on the stack. Browser frames keep the
 * file only: minified function names change with every release.
 */
export function topFrames(stack: string | null | undefined, source: ErrorSource, count = FINGERPRINT_FRAMES): string[] {
  const frames = parseStackFrames(stack).filter((f) => !/^(node:|internal\/|native$|<anonymous>$)/.test(f.file));
  const ours = frames.filter((f) => !f.file.startsWith('node_modules/'));
  return (ours.length > 0 ? ours : frames)
    .slice(0, count)
    .map((f) => (source === 'browser' || !f.fn ? f.file : `${f.fn} ${f.file}`));
}

/**
 * What is hashed into a fingerprint: the source, the error's name and code, the normalised message
 * and the top frames (docs/decisions/019-error-monitoring.md).
 */
export function fingerprintBasis(input: {
  source: ErrorSource;
  name?: string | null;
  code?: string | null;
  message: string;
  stack?: string | null;
}): string {
  return [input.source, input.name ?? '', input.code ?? '', normaliseMessage(input.message), ...topFrames(input.stack, input.source)].join('\n');
}

// --- What is stored of a request ------------------------------------------------------------------

const SENSITIVE_KEY = /pass(word|code)?|secret|token|authori[sz]ation|cookie|api[-_]?key|otp|recovery|signature|session|credential|card|cvc|iban/i;
const OPAQUE_SEGMENT = /^[A-Za-z0-9_-]{24,}$/;
const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a field name whose value must never be stored (passwords, tokens, keys, cookies…). */
export const isSensitiveKey = (key: string) => SENSITIVE_KEY.test(key);

/**
 * A URL as we keep it: path and query only; a manage link's token and any other long opaque path
 * segment become ':token'; the values of sensitive query parameters '[redacted]'.
 */
export function sanitizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://localhost');
  } catch {
    return '[invalid url]';
  }
  const segments = parsed.pathname.split('/');
  const path = segments
    .map((segment, i) => {
      const decoded = safeDecode(segment);
      if (i > 0 && segments[i - 1] === 'manage' && segment) return ':token';
      if (OPAQUE_SEGMENT.test(decoded) && !UUID_SEGMENT.test(decoded)) return ':token';
      return segment;
    })
    .join('/');
  const params = [...parsed.searchParams.entries()].map(([key, value]) => `${encodeURIComponent(key)}=${isSensitiveKey(key) ? '[redacted]' : encodeURIComponent(value)}`);
  return (params.length > 0 ? `${path}?${params.join('&')}` : path).slice(0, CLIENT_ERROR_LIMITS.url);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A body or any JSON value with sensitive fields redacted and its size bounded: strings cut at 200
 * characters, at most 20 items a list, 40 fields an object, 4 levels deep.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (ArrayBuffer.isView(value)) return `[binary, ${value.byteLength} bytes]`;
  if (depth >= 4) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, 20).map((item) => redactValue(item, depth + 1));
    return value.length > 20 ? [...items, `[${value.length - 20} more]`] : items;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries.slice(0, 40)) out[key] = isSensitiveKey(key) ? '[redacted]' : redactValue(item, depth + 1);
    if (entries.length > 40) out['…'] = `${entries.length - 40} more fields`;
    return out;
  }
  return `[${typeof value}]`;
}

