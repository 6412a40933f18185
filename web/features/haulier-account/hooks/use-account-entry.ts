import { useT } from '../../../i18n/index';

/**
 * The "Sign in to see your bookings" entry on /book, in the haulier's language. No request here:
 * /book stays as fast as it was (the account page itself asks who is signed in).
 */
export function useAccountEntry() {
  const { t } = useT('account');
  return { label: t('entry.signIn'), description: t('entry.description') };
}
