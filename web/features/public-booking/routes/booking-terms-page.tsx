import { Card, Container, List, Stack, Text, Title } from '@mantine/core';
import termsCatalogue from 'virtual:i18n-namespace/terms';
import { BOOKING_WINDOW_MIN, MIN_ADVANCE_MIN, OVERSTAY_THRESHOLD_MIN, REVIEW_PROMISE_HOURS } from '../../../../domain/constants';
import { PageLoader } from '../../../components/ui/page-loader';
import { I18nNamespace, useT, type Translate } from '../../../i18n/index';
import { HelpContacts } from '../components/help-contacts';
import { PageHeader } from '../components/page-header';
import { usePageTitle } from '../../../lib/use-page-title';

function Term({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <section>
      <Title order={2} size="h5" mb={6}>
        {n}. {title}
      </Title>
      {children}
    </section>
  );
}

/** The minimum notice ("2 hours") in the page's language. */
function advanceText(t: Translate): string {
  const hours = MIN_ADVANCE_MIN / 60;
  return Number.isInteger(hours) ? t('advance.hours', { hours }) : t('advance.minutes', { minutes: MIN_ADVANCE_MIN });
}

/** The items of one term, already translated. */
function Items({ items }: { items: string[] }) {
  return (
    <List size="sm" spacing={4}>
      {items.map((text) => (
        <List.Item key={text}>{text}</List.Item>
      ))}
    </List>
  );
}

/** /book/terms: the conditions a haulier accepts with a booking request (in the haulier's language, issue 27). */
function BookingTermsPage() {
  const { t } = useT('terms');
  usePageTitle(t('pageTitle'));
  const advance = advanceText(t);
  return (
    <Container size="md" py="xl">
      <PageHeader title={t('title')} backTo="/book/request" backLabel={t('back')} />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="lg">
          <Text size="sm">{t('intro')}</Text>

          <Term n={1} title={t('requests.title')}>
            <Items items={[t('requests.advance', { advance }), t('requests.pending', { hours: REVIEW_PROMISE_HOURS }), t('requests.decline')]} />
          </Term>

          <Term n={2} title={t('accurate.title')}>
            <Items items={[t('accurate.vehicle'), t('accurate.special'), t('accurate.tsr')]} />
          </Term>

          <Term n={3} title={t('safety.title')}>
            <Items items={[t('safety.induction'), t('safety.rules')]} />
          </Term>

          <Term n={4} title={t('arrival.title')}>
            <Items items={[t('arrival.window', { minutes: BOOKING_WINDOW_MIN }), t('arrival.overstay', { minutes: OVERSTAY_THRESHOLD_MIN })]} />
          </Term>

          <Term n={5} title={t('changes.title')}>
            <Items items={[t('changes.link'), t('changes.rules', { advance }), t('changes.early'), t('changes.private')]} />
          </Term>

          <Term n={6} title={t('documents.title')}>
            <Text size="sm">{t('documents.text')}</Text>
          </Term>

          <Term n={7} title={t('contacts.title')}>
            <HelpContacts />
          </Term>
        </Stack>
      </Card>
    </Container>
  );
}

/** The page with its texts (the terms namespace) in the haulier's language. */
export default function BookingTermsRoute() {
  return (
    <I18nNamespace catalogue={termsCatalogue} fallback={<PageLoader />}>
      <BookingTermsPage />
    </I18nNamespace>
  );
}
