import type { EmergencyState } from '../../../domain/gate';
import type { AppContext } from '../../context';
import { writeAudit } from '../../audit/write-audit';
import { enqueueMail } from '../../mail/outbox';
import { listOrgAdminEmails } from '../../mail/recipients';
import { notFound } from '../../plugins/errors';
import type { GateActor } from './gate-actions';
import { GATE_EMERGENCY_MAIL_KIND, GATE_HAULIER_HOLD_MAIL_KIND } from './gate-mail';
import { requireStaff } from './gate-rules';
import { emergencyStateOf, iso, siteDay } from './gate-view';
import * as repo from './gate.repo';

// The site's emergency stop (issue 22 item 6): while stopped, the portal offers no slot there and
// the gate refuses check-in and calls to bays (gate-rules.ts, the lifecycle service).

export async function getEmergency(ctx: AppContext, actor: GateActor): Promise<EmergencyState> {
  const site = await repo.findSite(ctx.database.db, actor);
  if (!site) throw notFound('Site');
  return emergencyStateOf(site);
}

/**
 * Stops (reason given) or resumes (reason null) the site: the portal offers no slot there while
 * stopped, and check-in and calls to bays are refused. Org admins are e-mailed, and the hauliers due
 * today; audited; published as a 'site' change.
 */
export async function setEmergency(ctx: AppContext, actor: GateActor, reason: string | null) {
  requireStaff(actor, reason === null ? 'resume the site' : 'stop the site');
  const now = ctx.clock.now();
  const isStop = reason !== null;
  const unchanged = await ctx.database.db.transaction(async (tx) => {
    const site = (await repo.findSite(tx, actor, true))!;
    if ((site.emergencyAt !== null) === isStop) return true;
    await repo.setEmergency(tx, actor, isStop ? { at: now, reason, by: actor.auditActor?.id ?? null } : { at: null, reason: null, by: null });
    await writeAudit(tx, {
      actor: actor.auditActor,
      action: isStop ? 'site.emergency_stopped' : 'site.emergency_resumed',
      resourceType: 'site',
      resourceId: site.id,
      orgId: site.orgId,
      siteId: site.id,
      details: isStop
        ? { site_name: site.name, reason }
        : { site_name: site.name, stopped_at: iso(site.emergencyAt), stop_reason: site.emergencyReason },
      ip: actor.ip ?? null,
    });
    const admins = await listOrgAdminEmails(tx, site.orgId);
    if (admins.length > 0) {
      await enqueueMail(tx, now, [
        {
          kind: GATE_EMERGENCY_MAIL_KIND,
          orgId: site.orgId,
          recipients: admins,
          payload: {
            siteName: site.name,
            timeZone: site.timeZone,
            state: isStop ? 'stopped' : 'resumed',
            reason: isStop ? reason : site.emergencyReason,
            byEmail: actor.auditActor?.email ?? null,
            at: now.toISOString(),
          },
        },
      ]);
    }
    // The hauliers due here today and not arrived: one e-mail each at the stop, one at the resume
    // (those told of this stop), in this transaction — a repeated stop or resume changes nothing.
    const stoppedAt = isStop ? now.toISOString() : iso(site.emergencyAt)!;
    const day = siteDay(site.timeZone, now);
    const hauliers = isStop
      ? await repo.listDueHauliers(tx, actor, day.start, day.end)
      : await repo.listHauliersToldOfStop(tx, actor, GATE_HAULIER_HOLD_MAIL_KIND, stoppedAt);
    if (hauliers.length > 0) {
      await enqueueMail(
        tx,
        now,
        hauliers.map((h) => ({
          kind: GATE_HAULIER_HOLD_MAIL_KIND,
          orgId: site.orgId,
          recipients: [h.email],
          payload: { siteId: site.id, siteName: site.name, timeZone: site.timeZone, state: isStop ? 'stopped' : 'resumed', stoppedAt, bookings: h.bookings, language: h.language },
        })),
      );
    }
    return false;
  });
  if (!unchanged) {
    ctx.realtime?.publish({
      entity: 'site',
      action: isStop ? 'emergency_stopped' : 'emergency_resumed',
      id: actor.siteId,
      orgId: actor.orgId,
      siteId: actor.siteId,
      at: now.toISOString(),
    });
    ctx.mailWorker?.kick();
  }
  return { ...(await getEmergency(ctx, actor)), unchanged };
}
