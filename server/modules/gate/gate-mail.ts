import type { MailRenderers } from '../../mail/outbox';
import { localDateOf, localTimeOf } from '../../../domain/slot-grid';

// The organization admins' e-mail when a site stops for an emergency, or resumes. Queued in the
// transaction of the change (gate.service.ts setEmergency); rendered from its payload.

export const GATE_EMERGENCY_MAIL_KIND = 'site.emergency';

export const gateMailRenderers: MailRenderers = {
  [GATE_EMERGENCY_MAIL_KIND]: async (_ctx, payload, recipients) => {
    if (recipients.length === 0 || typeof payload.siteName !== 'string' || typeof payload.at !== 'string') return null;
    const isStop = payload.state === 'stopped';
    const timeZone = typeof payload.timeZone === 'string' ? payload.timeZone : 'UTC';
    const at = new Date(payload.at);
    const when = `${localDateOf(at, timeZone)} ${localTimeOf(at, timeZone)} (${timeZone})`;
    const by = typeof payload.byEmail === 'string' ? payload.byEmail : 'a member of staff';
    const reason = typeof payload.reason === 'string' ? payload.reason : null;
    const subject = isStop ? `Emergency stop at ${payload.siteName}` : `${payload.siteName} has resumed operations`;
    const lines = isStop
      ? [
          `${by} stopped operations at ${payload.siteName} on ${when}.`,
          reason ? `Reason: ${reason}` : '',
          '',
          'The booking portal offers no slots at this site until it resumes. Resume it from the gate screen when it is safe.',
        ]
      : [`${by} resumed operations at ${payload.siteName} on ${when}.`, reason ? `The stop was for: ${reason}` : '', '', 'The booking portal offers its slots again.'];
    return { to: recipients, subject, text: lines.filter((l, i) => l !== '' || i > 0).join('\n') };
  },
};
