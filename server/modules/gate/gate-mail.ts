import type { MailRenderers } from '../../mail/outbox';
import { localDateOf, localTimeOf } from '../../../domain/slot-grid';

// The organization admins' e-mail when a site stops for an emergency, or resumes. Queued in the
// transaction of the change (gate-emergency.ts setEmergency); rendered from its payload.

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

// The hauliers due at a stopped site today (pending or approved, not arrived): one e-mail each when
// the site stops and one when it resumes, queued in the transaction of the change (issue 22 item 6).
export const GATE_HAULIER_HOLD_MAIL_KIND = 'site.emergency_haulier';

gateMailRenderers[GATE_HAULIER_HOLD_MAIL_KIND] = async (_ctx, payload, recipients) => {
  if (recipients.length === 0 || typeof payload.siteName !== 'string') return null;
  const isStop = payload.state === 'stopped';
  const timeZone = typeof payload.timeZone === 'string' ? payload.timeZone : 'UTC';
  const list = Array.isArray(payload.bookings) ? (payload.bookings as Array<{ tsrNumber?: unknown; startTime?: unknown }>) : [];
  const lines = list
    .filter((b) => typeof b.tsrNumber === 'string' && typeof b.startTime === 'string')
    .map((b) => `- ${b.tsrNumber as string} at ${localTimeOf(new Date(b.startTime as string), timeZone)} (${timeZone})`);
  const subject = isStop ? `${payload.siteName} is stopped: do not come to the gate yet` : `${payload.siteName} has resumed: your booking stands`;
  const text = isStop
    ? [
        `Operations at ${payload.siteName} are stopped for an emergency. Check-in is on hold until the site resumes.`,
        '',
        'Your booking today:',
        ...lines,
        '',
        'Please do not come to the gate until we tell you the site has resumed. We will e-mail you as soon as it does.',
      ]
    : [`${payload.siteName} has resumed operations. Check-in is open again.`, '', 'Your booking today:', ...lines, '', 'Come to the gate as booked.'];
  return { to: recipients, subject, text: text.join('\n') };
};
