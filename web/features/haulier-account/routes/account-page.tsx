import { Alert, Button, Container, Grid, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useHaulierMe } from '../api/get-haulier-me';
import { useSignOutHaulier } from '../api/sign-out';
import { MyBookings } from '../components/my-bookings';
import { MyStandingBookings } from '../components/my-standing-bookings';
import { SavedContactsCard } from '../components/saved-contacts-card';
import { SavedVehiclesCard } from '../components/saved-vehicles-card';
import { SignInCard } from '../components/sign-in-card';
import { useT } from '../../../i18n/index';
import accountCatalogue from 'virtual:i18n-namespace/account';
import { I18nNamespace } from '../../../i18n/index';
import { PageLoader } from '../../../components/ui/page-loader';

/** /book/account: signed out, the e-mailed link's form; signed in, "My bookings" and saved details. */
function AccountPage() {
  const { t } = useT('account');
  const me = useHaulierMe();
  const signOut = useSignOutHaulier();
  const navigate = useNavigate();
  usePageTitle(me.data ? t('page.myBookings') : t('page.signIn'));

  if (me.isPending) {
    return (
      <Container size="lg" py="xl">
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('common.loading')}</Text>
        </Group>
      </Container>
    );
  }
  if (me.isError) {
    return (
      <Container size="lg" py="xl">
        <Alert color="red" variant="light" title={t('page.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(me.error, t('page.loadFailed'))}</Text>
            <Button size="xs" variant="default" onClick={() => void me.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      </Container>
    );
  }
  if (!me.data) {
    return (
      <Container size="lg" py="xl">
        <Title order={1} mb="xs">
          {t('page.signIn')}
        </Title>
        <Text mb="lg">{t('page.signInIntro')}</Text>
        <SignInCard />
      </Container>
    );
  }

  return (
    <Container size="lg" py="xl">
      <Group justify="space-between" align="flex-start" mb="lg">
        <div>
          <Title order={1}>{t('page.myBookings')}</Title>
          <Text c="gray.7">{t('page.signedInAs', { email: me.data.email })}</Text>
        </div>
        <Button
          variant="default"
          leftSection={<IconLogout size={16} aria-hidden />}
          loading={signOut.isPending}
          onClick={() =>
            signOut.mutate(undefined, {
              onSuccess: () => void navigate('/book'),
              onError: (error) => toast.error(t('page.signOutFailed'), errorMessage(error, t('page.signOutFailed'))),
            })
          }
        >
          {t('page.signOut')}
        </Button>
      </Group>
      <Stack gap="xl">
        <MyBookings />
        <MyStandingBookings />
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <SavedVehiclesCard />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <SavedContactsCard />
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}

/** The page with its texts (the account namespace) in the haulier's language. */
export default function AccountPageRoute() {
  return (
    <I18nNamespace catalogue={accountCatalogue} fallback={<PageLoader />}>
      <AccountPage />
    </I18nNamespace>
  );
}
