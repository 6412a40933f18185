import { z } from 'zod';
import {
  CLIENT_ERROR_KINDS,
  CLIENT_ERROR_LIMITS,
  ERROR_GROUPS_PAGE_SIZE,
  ERROR_GROUPS_PAGE_SIZE_MAX,
  ERROR_GROUP_STATUSES,
  ERROR_SOURCES,
  ERROR_STATUS_FILTERS,
  type ClientErrorReport,
} from './error-monitoring-rules';

// Error monitoring (issue 12): the schemas of POST /api/client-errors and /api/platform/errors…,
// shared by the API (server/modules/error-monitoring) and the screen
// (web/features/superadmin-settings). The rules they rest on: domain/error-monitoring-rules.ts.

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

// The schema's output is the plain type the reporter builds (a compile-time check).
const _sameReport: (report: z.infer<typeof clientErrorReportSchema>) => ClientErrorReport = (report) => report;
void _sameReport;

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
