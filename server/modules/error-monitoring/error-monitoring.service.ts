import { ALREADY_OPEN, ALREADY_RESOLVED, SUPPORT_CANNOT_TRIAGE, type ErrorEvent, type ErrorGroup, type ErrorGroupDetail, type ErrorGroupList } from '../../../domain/error-monitoring';
import {
  CLIENT_ERROR_DEDUPE_SECONDS,
  ERROR_GROUP_RECENT_EVENTS,
  FINGERPRINT_PATTERN,
  isNoiseReport,
  sanitizeUrl,
  type ClientErrorReport,
  type ErrorSource,
  type ErrorStatusFilter,
} from '../../../domain/error-monitoring-rules';
import { canEditPlatformSettings } from '../../../domain/platform-settings';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../plugins/auth';
import { captureErrorEvent, conflict, forbidden, notFound } from '../../plugins/errors';
import { writeAudit } from '../../audit/write-audit';
import * as repo from './error-monitoring.repo';
import { fingerprintOf } from '../../plugins/error-fingerprint';

// Error monitoring (issue 12): groups of server and browser errors for platform administrators,
// resolved and reopened by super admins and owners; browser reports from anyone, rate limited and
// deduplicated. docs/decisions/019-error-monitoring.md.

const toEvent = (row: repo.EventRow): ErrorEvent => {
  const details = row.details ?? {};
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    source: row.source as ErrorSource,
    name: typeof details.name === 'string' ? details.name : null,
    code: row.code,
    message: row.message,
    stack: row.stack,
    method: row.method,
    url: row.url,
    statusCode: row.statusCode,
    requestId: row.requestId,
    userId: row.userId,
    userEmail: row.userEmail,
    details,
  };
};

const toGroup = (row: repo.GroupRow, sample: ErrorEvent): ErrorGroup => ({
  fingerprint: row.fingerprint,
  source: row.source,
  name: sample.name,
  message: sample.message,
  count: row.count,
  firstSeen: row.firstSeen.toISOString(),
  lastSeen: row.lastSeen.toISOString(),
  status: row.status,
  isRegression: row.isRegression,
  resolvedAt: row.resolvedAt?.toISOString() ?? null,
  resolvedByEmail: row.resolvedByEmail,
  sample,
});

async function withSamples(ctx: AppContext, rows: repo.GroupRow[]): Promise<ErrorGroup[]> {
  const samples = new Map((await repo.latestEvents(ctx.database.db, rows.map((r) => r.fingerprint))).map((e) => [e.fingerprint, toEvent(e)]));
  return rows.flatMap((row) => {
    const sample = samples.get(row.fingerprint);
    return sample ? [toGroup(row, sample)] : [];
  });
}

export async function listErrorGroups(
  ctx: AppContext,
  auth: AuthContext,
  query: { status: ErrorStatusFilter; source?: ErrorSource; page: number; pageSize: number },
): Promise<ErrorGroupList> {
  const { rows, total } = await repo.listGroups(ctx.database.db, {
    status: query.status,
    source: query.source,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return { total, items: await withSamples(ctx, rows), canTriage: canEditPlatformSettings(auth.user.platformRole) };
}

async function findGroup(ctx: AppContext, fingerprint: string): Promise<ErrorGroup> {
  if (!FINGERPRINT_PATTERN.test(fingerprint)) throw notFound('Error group');
  const { rows } = await repo.listGroups(ctx.database.db, { status: 'all', fingerprint, limit: 1, offset: 0 });
  const [group] = await withSamples(ctx, rows);
  if (!group) throw notFound('Error group');
  return group;
}

export async function getErrorGroup(ctx: AppContext, auth: AuthContext, fingerprint: string): Promise<ErrorGroupDetail> {
  const group = await findGroup(ctx, fingerprint);
  const events = (await repo.recentEvents(ctx.database.db, fingerprint, ERROR_GROUP_RECENT_EVENTS)).map(toEvent);
  return { group, events, canTriage: canEditPlatformSettings(auth.user.platformRole) };
}

/**
 * Resolves a group (it is fixed) or reopens it. A resolved group that happens again is open again
 * by itself (a regression), and may be resolved again. One audit entry per change; resolving what
 * is resolved, or reopening what is open, answers 409 and changes nothing.
 */
async function changeStatus(ctx: AppContext, auth: AuthContext, fingerprint: string, to: 'resolved' | 'open', ip: string | null): Promise<ErrorGroup> {
  if (!canEditPlatformSettings(auth.user.platformRole)) throw forbidden(SUPPORT_CANNOT_TRIAGE);
  if (!FINGERPRINT_PATTERN.test(fingerprint) || !(await repo.hasEvents(ctx.database.db, fingerprint))) throw notFound('Error group');
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    await repo.lockGroupRow(tx, fingerprint, now);
    const { rows } = await repo.listGroups(tx, { status: 'all', fingerprint, limit: 1, offset: 0 });
    const current = rows[0];
    if (!current) throw notFound('Error group');
    if (current.status === to) throw conflict(to === 'resolved' ? 'already_resolved' : 'already_open', to === 'resolved' ? ALREADY_RESOLVED : ALREADY_OPEN);
    await repo.setGroupStatus(tx, fingerprint, {
      status: to,
      resolvedAt: to === 'resolved' ? now : null,
      resolvedBy: to === 'resolved' ? auth.user.id : null,
      now,
    });
    // 'issue', not 'error': the dashboard counts audit actions naming an error as alerts (spec §7).
    await writeAudit(tx, {
      actor: { id: auth.user.id, email: auth.user.email, role: auth.user.platformRole },
      action: to === 'resolved' ? 'platform.issue_resolved' : 'platform.issue_reopened',
      resourceType: 'error_group',
      resourceId: fingerprint,
      details: {
        source: current.source,
        count: current.count,
        lastSeen: current.lastSeen.toISOString(),
        previousStatus: current.status,
        ...(current.isRegression ? { regression: true } : {}),
      },
      ip,
    });
  });
  return findGroup(ctx, fingerprint);
}

export const resolveErrorGroup = (ctx: AppContext, auth: AuthContext, fingerprint: string, ip: string | null) =>
  changeStatus(ctx, auth, fingerprint, 'resolved', ip);

export const reopenErrorGroup = (ctx: AppContext, auth: AuthContext, fingerprint: string, ip: string | null) =>
  changeStatus(ctx, auth, fingerprint, 'open', ip);

// ---- Browser reports -----------------------------------------------------------------------------

const RECENT_REPORTS_MAX = 10_000;

/**
 * The reports stored lately, by address and fingerprint: one browser stuck in a loop (or many tabs
 * of one office) stores an error once a minute, not hundreds of times. In memory, per server
 * process: a second node may store one more copy, which is harmless.
 */
export function createRecentReports(windowMs = CLIENT_ERROR_DEDUPE_SECONDS * 1000) {
  const seen = new Map<string, number>();
  return {
    /** True (and remembered) when `key` was not stored within the window before `nowMs`. */
    isFirst(key: string, nowMs: number): boolean {
      const last = seen.get(key);
      if (last !== undefined && nowMs - last < windowMs) return false;
      seen.delete(key);
      seen.set(key, nowMs);
      if (seen.size > RECENT_REPORTS_MAX) {
        for (const [k, at] of seen) {
          if (seen.size <= RECENT_REPORTS_MAX / 2 && nowMs - at < windowMs) break;
          seen.delete(k);
        }
      }
      return true;
    },
  };
}
export type RecentReports = ReturnType<typeof createRecentReports>;

export async function reportClientError(
  ctx: AppContext,
  recent: RecentReports,
  report: ClientErrorReport,
  from: { ip: string; userId: string | null; userAgent: string | null; requestId: string },
): Promise<{ stored: boolean }> {
  if (isNoiseReport(report)) return { stored: false };
  const now = ctx.clock.now();
  const name = report.name || null;
  const fingerprint = fingerprintOf({ source: 'browser', name, code: null, message: report.message, stack: report.stack });
  if (!recent.isFirst(`${from.ip}|${fingerprint}`, now.getTime())) return { stored: false };
  const page = sanitizeUrl(report.url);
  await captureErrorEvent(ctx.database, {
    source: 'browser',
    requestId: from.requestId,
    method: null,
    url: page,
    statusCode: null,
    name,
    code: null,
    message: report.message,
    stack: report.stack ?? null,
    userId: from.userId,
    details: {
      kind: report.kind,
      page,
      ...(from.userAgent ? { userAgent: from.userAgent.slice(0, 300) } : {}),
      ...(report.componentStack ? { componentStack: report.componentStack } : {}),
    },
    createdAt: now,
  });
  return { stored: true };
}
