import { languageOr } from '../../../domain/languages';
import { SIGN_IN_LINK_TTL_MIN } from '../../../domain/haulier-accounts';
import { hashToken, randomToken } from '../../auth/tokens';
import type { MailRenderers } from '../../mail/outbox';
import * as repo from './haulier-accounts.repo';
import { translatorFor } from '../../i18n/translate';

// The haulier's sign-in mail (decision 044). The request only queues a row of this kind — the same
// row whether or not the address has bookings or an account — and answers. The mail worker, off the
// request path, makes the one-time token (only its hash is stored; the token itself is never in the
// outbox table), records the link and renders the mail in the language the request named, else the
// account's, else English. The link carries the token in its fragment (#token=…), which browsers
// never send to a server, so it stays out of access logs and Referer headers.

export const SIGN_IN_MAIL_KIND = 'haulier.sign_in_link';

export const haulierMailRenderers: MailRenderers = {
  [SIGN_IN_MAIL_KIND]: async (ctx, payload) => {
    if (typeof payload.email !== 'string') return null;
    const email = payload.email;
    const account = payload.language ? undefined : await repo.findAccountByEmail(ctx.database.db, email);
    const language = languageOr(payload.language ?? account?.language);
    const now = ctx.clock.now();
    const token = randomToken();
    await repo.insertSignInLink(ctx.database.db, {
      email,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + SIGN_IN_LINK_TTL_MIN * 60_000),
      ip: typeof payload.ip === 'string' ? payload.ip : null,
      now,
    });
    const t = translatorFor(language, 'account');
    const link = `${ctx.config.publicUrl}/book/account/sign-in#token=${token}`;
    return {
      to: email,
      subject: t('mail.signIn.subject'),
      text: [t('mail.signIn.intro'), '', link, '', t('mail.signIn.validity', { minutes: SIGN_IN_LINK_TTL_MIN }), t('mail.signIn.ignore')].join('\n'),
    };
  },
};
