import { z } from 'zod';

// Error monitoring (issue 12): server failures and browser errors, grouped by fingerprint, on
// /superadmin/settings?tab=errors. The API (server/modules/error-monitoring), the error handler
// (server/plugins/errors.ts), the browser's reporter (web/lib/error-reporter.ts) and the screen share
// what is here. How a fingerprint is made and why: docs/decisions/019-error-monitoring.md.

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

export const clientErrorReportSchema = z
  .object({
    kind: z.enum(CLIENT_ERROR_KINDS, { error: `kind must be one of ${CLIENT_ERROR_KINDS.join(', ')}` }),
    name: z.string().trim().max(CLIENT_ERROR_LIMITS.name, `name must be at most ${CLIENT_ERROR_LIMITS.name} characters`).nullish(),
    message: z
      .string({ error: 'message is required' })
      .trim()
      .min(1, 'message is required')
      .max(CLIENT_ERROR_LIMITS.message, `message must be at most ${CLIENT_ERROR_LIMITS.message} characters`),
    stack: z.string().max(CLIENT_ERROR_LIMITS.stack, `stack must be at most ${CLIENT_ERROR_LIMITS.stack} characters`).nullish(),
    componentStack: z
      .string()
      .max(CLIENT_ERROR_LIMITS.componentStack, `componentStack must be at most ${CLIENT_ERROR_LIMITS.componentStack} characters`)
      .nullish(),
    url: z.string({ error: 'url is required' }).trim().min(1, 'url is required').max(CLIENT_ERROR_LIMITS.url, `url must be at most ${CLIENT_ERROR_LIMITS.url} characters`),
  })
  .strict();
export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;

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

// --- The API --------------------------------------------------------------------------------------

export const errorGroupListQuerySchema = z.object({
  status: z.enum(ERROR_STATUS_FILTERS, { error: `status must be one of ${ERROR_STATUS_FILTERS.join(', ')}` }).default('open'),
  source: z.enum(ERROR_SOURCES, { error: `source must be one of ${ERROR_SOURCES.join(', ')}` }).optional(),
  page: z.coerce.number({ error: 'page must be a number' }).int('page must be a whole number').min(1, 'page must be 1 or more').default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be 1 or more')
    .max(ERROR_GROUPS_PAGE_SIZE_MAX, `pageSize must be at most ${ERROR_GROUPS_PAGE_SIZE_MAX}`)
    .default(ERROR_GROUPS_PAGE_SIZE),
});
export type ErrorGroupListQuery = z.input<typeof errorGroupListQuerySchema>;

export const errorEventSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  source: z.enum(ERROR_SOURCES),
  name: z.string().nullable(),
  code: z.string().nullable(),
  message: z.string(),
  stack: z.string().nullable(),
  /** The server request (method, URL, status) or the browser's page (URL). */
  method: z.string().nullable(),
  url: z.string().nullable(),
  statusCode: z.number().int().nullable(),
  requestId: z.string().nullable(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  /** What was kept of the request or the page: redacted headers and body, user agent, component stack… */
  details: z.record(z.string(), z.unknown()),
});
export type ErrorEvent = z.infer<typeof errorEventSchema>;

export const errorGroupSchema = z.object({
  fingerprint: z.string(),
  source: z.enum(ERROR_SOURCES),
  name: z.string().nullable(),
  message: z.string(),
  count: z.number().int(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  /** Open when never resolved, reopened, or seen again after it was resolved. */
  status: z.enum(ERROR_GROUP_STATUSES),
  /** Resolved once and seen again since: open again by itself. */
  isRegression: z.boolean(),
  resolvedAt: z.string().nullable(),
  resolvedByEmail: z.string().nullable(),
  /** The latest event, with its stack and request. */
  sample: errorEventSchema,
});
export type ErrorGroup = z.infer<typeof errorGroupSchema>;

export const errorGroupListSchema = z.object({ total: z.number().int(), items: z.array(errorGroupSchema), canTriage: z.boolean() });
export type ErrorGroupList = z.infer<typeof errorGroupListSchema>;

export const errorGroupDetailSchema = z.object({
  group: errorGroupSchema,
  /** The latest events, newest first. */
  events: z.array(errorEventSchema),
  canTriage: z.boolean(),
});
export type ErrorGroupDetail = z.infer<typeof errorGroupDetailSchema>;

export const clientErrorAcceptedSchema = z.object({
  /** False when the report was noise or a repeat of one just stored. */
  stored: z.boolean(),
});

export const ERROR_GROUP_NOT_FOUND = 'Error group not found';
export const ALREADY_RESOLVED = 'This error group is already resolved';
export const ALREADY_OPEN = 'This error group is already open';
export const SUPPORT_CANNOT_TRIAGE = 'Platform support can view errors but cannot resolve or reopen them';
export const ERRORS_FETCH_FAILED = 'Failed to fetch errors';

/** 'TypeError: x is undefined' — the name, when there is one, before the message. */
export function errorTitle(group: { name: string | null; message: string }): string {
  return group.name && !group.message.startsWith(group.name) ? `${group.name}: ${group.message}` : group.message;
}
