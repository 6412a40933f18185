import { Alert, Anchor, Button, Card, Container, Grid, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCalendarPlus, IconClock, IconHelpCircle, IconMapPin, IconPhoneCall, IconUserCircle } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { REVIEW_PROMISE_HOURS } from '../../../../domain/constants';
import { useBookingInfo } from '../api/get-booking-info';
import type { BookingInfo } from '../api/types';
import { BookingRequirements } from '../components/booking-requirements';
import { PageHeader } from '../components/page-header';
import { SiteContact, SiteHoursTable, SiteLocationCard } from '../components/site-info';
import { alertStyles } from '../utils/styles';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAccountEntry } from '../../haulier-account/hooks/use-account-entry';
import { useT } from '../../../i18n/index';
import accountCatalogue from 'virtual:i18n-namespace/account';
import { I18nNamespace } from '../../../i18n/index';
import { PageLoader } from '../../../components/ui/page-loader';
import { useTranslateMessage } from '../../../i18n/validation';

function SectionTitle({ icon, children }: { icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <Group gap="xs" mb="sm" wrap="nowrap">
      {icon}
      <Title order={2} size="h4">
        {children}
      </Title>
    </Group>
  );
}

function visibleOrganizations(info: BookingInfo | undefined, orgId: string | null) {
  const orgs = info?.organizations ?? [];
  const chosen = orgId ? orgs.filter((o) => o.id === orgId) : [];
  return chosen.length > 0 ? chosen : orgs;
}

/** /book: how to request a dock slot, and where, when and whom to call. */
function BookLandingPage() {
  const { t } = useT('portal');
  const translateMessage = useTranslateMessage();
  usePageTitle(t('landing.pageTitle'));
  const [params] = useSearchParams();
  const orgId = params.get('org');
  const info = useBookingInfo();
  const organizations = visibleOrganizations(info.data, orgId);
  const showOrgNames = organizations.length > 1;
  const requestPath = orgId ? `/book/request?org=${encodeURIComponent(orgId)}` : '/book/request';
  const accountEntry = useAccountEntry();

  return (
    <Container size="lg" py="xl">
      <PageHeader
        title={t('landing.title')}
        description={t('landing.description', { hours: REVIEW_PROMISE_HOURS })}
        actions={
          <Group gap="sm">
            <Button component={Link} to="/book/account" size="md" variant="default" leftSection={<IconUserCircle size={18} aria-hidden />} title={accountEntry.description}>
              {accountEntry.label}
            </Button>
            <Button component={Link} to={requestPath} size="md" leftSection={<IconCalendarPlus size={18} aria-hidden />}>
              {t('landing.book')}
            </Button>
          </Group>
        }
      />

      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder radius="md" padding="lg" h="100%">
            <SectionTitle icon={<IconAlertCircle size={22} aria-hidden color="var(--mantine-primary-color-filled)" />}>
              {t('landing.requirements')}
            </SectionTitle>
            <BookingRequirements />
          </Card>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder radius="md" padding="lg" h="100%">
            <SectionTitle icon={<IconClock size={22} aria-hidden color="var(--mantine-primary-color-filled)" />}>{t('landing.hours')}</SectionTitle>
            {info.isPending ? (
              <Group gap="xs">
                <Loader size="sm" />
                <Text size="sm">{t('landing.loadingHours')}</Text>
              </Group>
            ) : info.isError ? (
              <Alert color="red" variant="light" styles={alertStyles} title={t('landing.infoFailed')}>
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">{translateMessage(info.error.message)}</Text>
                  <Button size="xs" variant="default" onClick={() => void info.refetch()}>
                    {t('common.tryAgain')}
                  </Button>
                </Stack>
              </Alert>
            ) : organizations.length === 0 ? (
              <Text size="sm">{t('contacts.none')}</Text>
            ) : (
              <Stack gap="md">
                {organizations.map((org) => (
                  <Stack key={org.id} gap="xs">
                    {showOrgNames ? (
                      <Text fw={700} size="sm" c="indigo.9">
                        {org.name}
                      </Text>
                    ) : null}
                    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
                      {org.sites.map((site) => (
                        <SiteHoursTable key={site.id} site={site} />
                      ))}
                    </SimpleGrid>
                  </Stack>
                ))}
                <Text size="xs" c="gray.7">
                  {t('landing.hoursLocal')}
                </Text>
              </Stack>
            )}
          </Card>
        </Grid.Col>

        <Grid.Col span={12}>
          <SectionTitle icon={<IconMapPin size={22} aria-hidden color="var(--mantine-primary-color-filled)" />}>{t('landing.locations')}</SectionTitle>
          {info.isPending ? (
            <Loader size="sm" />
          ) : info.isError ? null : (
            <Stack gap="md">
              {organizations.map((org) => (
                <Stack key={org.id} gap="xs">
                  {showOrgNames ? (
                    <Text fw={700} size="sm" c="indigo.9">
                      {org.name}
                    </Text>
                  ) : null}
                  <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
                    {org.sites.map((site) => (
                      <SiteLocationCard key={site.id} site={site} />
                    ))}
                  </SimpleGrid>
                </Stack>
              ))}
            </Stack>
          )}
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder radius="md" padding="lg" h="100%">
            <SectionTitle icon={<IconPhoneCall size={22} aria-hidden color="var(--mantine-primary-color-filled)" />}>{t('landing.needHelp')}</SectionTitle>
            {info.data ? (
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                {organizations.flatMap((org) => org.sites).map((site) => (
                  <SiteContact key={site.id} site={site} />
                ))}
              </SimpleGrid>
            ) : null}
            <Text size="sm" mt="md">
              {t('landing.callSite')}
            </Text>
          </Card>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder radius="md" padding="lg" h="100%">
            <SectionTitle icon={<IconHelpCircle size={22} aria-hidden color="var(--mantine-primary-color-filled)" />}>{t('landing.beforeYouBook')}</SectionTitle>
            <Stack gap="xs">
              <Anchor component={Link} to="/book/help" size="sm">
                {t('landing.helpLink')}
              </Anchor>
              <Anchor component={Link} to="/book/terms" size="sm">
                {t('landing.termsLink')}
              </Anchor>
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
    </Container>
  );
}

/** The page with the account entry's texts (the account namespace) in the haulier's language. */
export default function BookLandingPageRoute() {
  return (
    <I18nNamespace catalogue={accountCatalogue} fallback={<PageLoader />}>
      <BookLandingPage />
    </I18nNamespace>
  );
}
