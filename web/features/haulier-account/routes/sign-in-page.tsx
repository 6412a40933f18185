import { Alert, Button, Container, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useSignInWithLink } from '../api/sign-in-with-link';
import { useT } from '../../../i18n/index';
import accountCatalogue from 'virtual:i18n-namespace/account';
import { I18nNamespace } from '../../../i18n/index';
import { PageLoader } from '../../../components/ui/page-loader';

/** The token of the e-mailed link: in the URL's fragment (#token=…), which no server ever receives. */
function tokenFromFragment(): string | null {
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
}

/** /book/account/sign-in#token=…: spends the link once, then "My bookings". */
function SignInPage() {
  const { t, language } = useT('account');
  usePageTitle(t('page.signIn'));
  const navigate = useNavigate();
  const signIn = useSignInWithLink();
  const [token] = useState(tokenFromFragment);
  const isStarted = useRef(false);

  useEffect(() => {
    if (!token || isStarted.current) return;
    isStarted.current = true;
    // The token leaves the address bar (and the history) before it is spent.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    signIn.mutate({ token, language }, { onSuccess: () => void navigate('/book/account', { replace: true }) });
  }, [token, language, signIn, navigate]);

  const failure = !token ? t('link.missing') : signIn.isError ? errorMessage(signIn.error, t('link.failed')) : null;
  return (
    <Container size="sm" py="xl">
      {failure ? (
        <Alert color="red" variant="light" title={t('link.failedTitle')}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{failure}</Text>
            <Button component={Link} to="/book/account" size="sm">
              {t('link.askAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text>{t('link.signingIn')}</Text>
        </Group>
      )}
    </Container>
  );
}

/** The page with its texts (the account namespace) in the haulier's language. */
export default function SignInPageRoute() {
  return (
    <I18nNamespace catalogue={accountCatalogue} fallback={<PageLoader />}>
      <SignInPage />
    </I18nNamespace>
  );
}
