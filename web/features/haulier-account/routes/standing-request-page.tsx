import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import accountCatalogue from 'virtual:i18n-namespace/account';
import { PageLoader } from '../../../components/ui/page-loader';
import { I18nNamespace, useT } from '../../../i18n/index';
import { useHaulierMe } from '../api/get-haulier-me';
import { StandingRequestForm } from '../components/standing-request-form';

/** /book/account/standing/new: a signed-in haulier asks an organization for a standing booking. */
function StandingRequestPage() {
  const { t } = useT('account');
  const me = useHaulierMe();
  usePageTitle(t('standing.pageTitle'));

  return (
    <Container size="md" py="xl">
      <Title order={1} mb="xs">
        {t('standing.pageTitle')}
      </Title>
      {me.isPending ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('common.loading')}</Text>
        </Group>
      ) : me.isError ? (
        <Alert color="red" variant="light" title={t('page.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(me.error, t('page.loadFailed'))}</Text>
            <Button size="xs" variant="default" onClick={() => void me.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : !me.data ? (
        <Alert color="blue" variant="light" title={t('standing.signInFirstTitle')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('standing.signInFirst')}</Text>
            <Button component={Link} to="/book/account" size="xs">
              {t('page.signIn')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <>
          <Text mb="lg">{t('standing.intro')}</Text>
          <StandingRequestForm />
        </>
      )}
    </Container>
  );
}

/** The page with its texts (the account namespace) in the haulier's language. */
export default function StandingRequestPageRoute() {
  return (
    <I18nNamespace catalogue={accountCatalogue} fallback={<PageLoader />}>
      <StandingRequestPage />
    </I18nNamespace>
  );
}
