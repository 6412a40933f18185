import {
  AUDIT_CSV_COLUMNS,
  AUDIT_CSV_MAX_ROWS,
  auditCsvLine,
  csvLine,
  type AuditFilter,
  type AuditFilterOptions,
  type AuditList,
} from '../../../domain/audit-log';
import type { AppContext } from '../../context';
import { writeAudit, type AuditActor } from '../../audit/write-audit';
import * as repo from './audit-log.repo';
import type { AuditScope } from './audit-log.repo';

// The audit log as read by platform administrators (every entry) and organization admins (their
// organization's). Reading writes nothing; a CSV export is itself recorded ('audit.exported').

export async function listAudit(ctx: AppContext, scope: AuditScope, filter: AuditFilter, page: number, pageSize: number): Promise<AuditList> {
  const { items, total } = await repo.listEntries(ctx.database.db, scope, filter, page, pageSize);
  return { items, total, page, pageSize };
}

export async function auditFilterOptions(ctx: AppContext, scope: AuditScope): Promise<AuditFilterOptions> {
  return repo.filterOptions(ctx.database.db, scope);
}

export type AuditCsv = { text: string; rows: number; total: number };

/** The newest AUDIT_CSV_MAX_ROWS matching entries as CSV (header first, every cell escaped), and the export recorded. */
export async function exportAuditCsv(
  ctx: AppContext,
  scope: AuditScope,
  filter: AuditFilter,
  who: { actor: AuditActor; ip: string },
): Promise<AuditCsv> {
  return ctx.database.db.transaction(async (tx) => {
    const { items, total } = await repo.exportEntries(tx, scope, filter, AUDIT_CSV_MAX_ROWS);
    const orgId = 'orgId' in scope ? scope.orgId : (filter.orgId ?? null);
    await writeAudit(tx, {
      actor: who.actor,
      action: 'audit.exported',
      resourceType: 'audit_log',
      orgId,
      details: { filters: definedFilters(filter), rows: items.length, total },
      ip: who.ip,
    });
    const text = csvLine(AUDIT_CSV_COLUMNS) + items.map(auditCsvLine).join('');
    return { text, rows: items.length, total };
  });
}

/** The filters that were set, for the export's audit entry. */
function definedFilters(filter: AuditFilter): Record<string, string> {
  const set: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (typeof value === 'string' && value !== '' && !(key === 'tz' && value === 'UTC')) set[key] = value;
  }
  return set;
}
