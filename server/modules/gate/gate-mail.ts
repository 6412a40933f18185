import { languageOr } from '../../../domain/languages';
import type { MailRenderers } from '../../mail/outbox';
import { translatorFor } from '../../i18n/translate';
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
  // In the language of the haulier's booking (namespace `mail`, as every mail to hauliers).
  const t = translatorFor(languageOr(payload.language), 'mail');
  const site = payload.siteName;
  const list = Array.isArray(payload.bookings) ? (payload.bookings as Array<{ tsrNumber?: unknown; startTime?: unknown }>) : [];
  const lines = list
    .filter((b) => typeof b.tsrNumber === 'string' && typeof b.startTime === 'string')
    .map((b) => t('hold.booking', { reference: b.tsrNumber, time: localTimeOf(new Date(b.startTime as string), timeZone), timeZone }));
  const state = isStop ? 'stopped' : 'resumed';
  const subject = t(`hold.${state}.subject`, { site });
  const text = [t(`hold.${state}.intro`, { site }), '', t('hold.yourBookings'), ...lines, '', t(`hold.${state}.outro`)];
  return { to: recipients, subject, text: text.join('\n') };
};
