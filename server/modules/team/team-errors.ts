import { ALREADY_MEMBER, EMPLOYEE_ID_TAKEN, INVITATION_PENDING } from '../../../domain/org-team';
import { AppError, badRequest, notFound } from '../../plugins/errors';

// The team's refusals: field errors the forms put under the field, and what a unique index says
// when two writes raced past the checks.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid names nothing (404, not a database error). */
export function requireUuid(id: string, what: string): void {
  if (!UUID.test(id)) throw notFound(what);
}

/** 400 with the message under one field of the form ({ details: [{ path, message }] }). */
export const fieldError = (path: string, message: string) => badRequest(message, [{ path, message }]);

function pgField(error: unknown, field: 'code' | 'constraint'): string | undefined {
  const e = error as Record<string, unknown> & { cause?: Record<string, unknown> };
  const value = e?.[field] ?? e?.cause?.[field];
  return typeof value === 'string' ? value : undefined;
}

const FIELD_BY_INDEX: Record<string, [string, string]> = {
  org_memberships_employee_idx: ['employeeId', EMPLOYEE_ID_TAKEN],
  org_invitations_pending_employee_idx: ['employeeId', EMPLOYEE_ID_TAKEN],
  org_invitations_pending_email_idx: ['email', INVITATION_PENDING],
  org_memberships_org_user_idx: ['email', ALREADY_MEMBER],
};

/** A unique violation of one of the team's indexes as the field error the checks would have given. */
export function asTeamFieldError(error: unknown): unknown {
  if (error instanceof AppError || pgField(error, 'code') !== '23505') return error;
  const known = FIELD_BY_INDEX[pgField(error, 'constraint') ?? ''];
  return known ? fieldError(known[0], known[1]) : error;
}
