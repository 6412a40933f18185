import type { Db, Tx } from '../../db/client';
import { writeAudit } from '../../audit/write-audit';

// The entries that open and close an impersonation (decision 017). The actor is the platform user
// — the person who did it — and the entry is about the member acted as, in their organization.
// Everything the member's session does in between is recorded as the member, with the platform
// user as impersonator (server/audit/actor-context.ts).

export type ImpersonationOutcome = 'ended' | 'expired' | 'replaced' | 'signed_out';

type Parties = {
  sessionId: string;
  orgId: string;
  impersonator: { id: string; email: string };
  member: { id: string; email: string };
};

export function writeImpersonationStart(db: Db | Tx, parties: Parties & { reason: string; role: string; expiresAt: Date }, ip: string | null) {
  return writeAudit(db, {
    actor: { id: parties.impersonator.id, email: parties.impersonator.email },
    action: 'impersonation.start',
    resourceType: 'user',
    resourceId: parties.member.id,
    orgId: parties.orgId,
    details: {
      actingAs: parties.member.email,
      actingAsUserId: parties.member.id,
      actingAsRole: parties.role,
      reason: parties.reason,
      sessionId: parties.sessionId,
      expiresAt: parties.expiresAt.toISOString(),
    },
    ip,
    impersonator: null,
  });
}

export function writeImpersonationEnd(db: Db | Tx, parties: Parties & { outcome: ImpersonationOutcome; endedAt: Date }, ip: string | null) {
  return writeAudit(db, {
    actor: { id: parties.impersonator.id, email: parties.impersonator.email },
    action: 'impersonation.end',
    resourceType: 'user',
    resourceId: parties.member.id,
    orgId: parties.orgId,
    details: {
      actingAs: parties.member.email,
      actingAsUserId: parties.member.id,
      sessionId: parties.sessionId,
      outcome: parties.outcome,
      endedAt: parties.endedAt.toISOString(),
    },
    ip,
    impersonator: null,
  });
}
