import { Anchor, Button, Card, Container, List, Stack, Text, ThemeIcon, Timeline, Title } from '@mantine/core';
import { IconCalendarPlus, IconCheck, IconClockHour4, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import helpCatalogue from 'virtual:i18n-namespace/help';
import {
  BOOKING_WINDOW_MIN,
  MAX_DURATION_MIN,
  MAX_FILES,
  MIN_ADVANCE_MIN,
  MIN_DURATION_MIN,
  REVIEW_PROMISE_HOURS,
} from '../../../../domain/constants';
import { PageLoader } from '../../../components/ui/page-loader';
import { I18nNamespace, useT, type Translate } from '../../../i18n/index';
import { HelpContacts } from '../components/help-contacts';
import { PageHeader } from '../components/page-header';
import { usePageTitle } from '../../../lib/use-page-title';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The minimum notice ("2 hours") in the page's language. */
function advanceText(t: Translate): string {
  const hours = MIN_ADVANCE_MIN / 60;
  return Number.isInteger(hours) ? t('advance.hours', { hours }) : t('advance.minutes', { minutes: MIN_ADVANCE_MIN });
}

/** Spec §5's booking requirements (as on /book), in the help page's language. */
function Requirements({ t }: { t: Translate }) {
  const list = (keys: string[], color: string, icon: React.ReactNode) => (
    <List spacing={4} size="sm" icon={<ThemeIcon color={color} size={18} radius="xl">{icon}</ThemeIcon>}>
      {keys.map((key) => (
        <List.Item key={key}>{t(key)}</List.Item>
      ))}
    </List>
  );
  return (
    <Stack gap="sm">
      <div>
        <Text fw={600} size="sm" mb={4}>
          {t('need.required')}
        </Text>
        {list(['need.tsr', 'need.dimensions', 'need.consignment', 'need.induction', 'need.contact'], 'green', <IconCheck size={12} aria-hidden />)}
      </div>
      <div>
        <Text fw={600} size="sm" mb={4}>
          {t('need.optional')}
        </Text>
        {list(['need.emergency'], 'gray', <IconPlus size={12} aria-hidden />)}
      </div>
      <Text size="sm" fw={600} style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <IconClockHour4 size={18} aria-hidden color="var(--mantine-color-orange-8)" />
        {t('need.advance', { advance: advanceText(t) })}
      </Text>
    </Stack>
  );
}

/** A sentence around a link: no space before a closing full stop (the link ends some languages' sentences). */
const spaceBefore = (text: string) => (/^[.,;:!?]/.test(text) ? '' : ' ');

/** /book/help: how booking works, what to bring, arriving and checking in (in the haulier's language, issue 27). */
function BookingHelpPage() {
  const { t } = useT('help');
  usePageTitle(t('pageTitle'));
  const after = t('change.after');
  return (
    <Container size="md" py="xl">
      <PageHeader title={t('title')} description={t('description')} backTo="/book" backLabel={t('back')} />
      <Stack gap="lg">
        <Section title={t('how.title')}>
          <Timeline active={4} bulletSize={22} lineWidth={2}>
            <Timeline.Item title={t('how.fill.title')}>
              <Text size="sm">{t('how.fill.text', { advance: advanceText(t) })}</Text>
            </Timeline.Item>
            <Timeline.Item title={t('how.pick.title')}>
              <Text size="sm">{t('how.pick.text', { min: MIN_DURATION_MIN, max: MAX_DURATION_MIN })}</Text>
            </Timeline.Item>
            <Timeline.Item title={t('how.submit.title')}>
              <Text size="sm">{t('how.submit.text')}</Text>
            </Timeline.Item>
            <Timeline.Item title={t('how.review.title')}>
              <Text size="sm">{t('how.review.text', { hours: REVIEW_PROMISE_HOURS })}</Text>
            </Timeline.Item>
          </Timeline>
        </Section>

        <Section title={t('need.title')}>
          <Requirements t={t} />
          <Text size="sm" mt="sm">
            {t('need.documents', { max: MAX_FILES })}
          </Text>
        </Section>

        <Section title={t('bring.title')}>
          <List size="sm" spacing={6}>
            {['bring.reference', 'bring.induction', 'bring.consignment', 'bring.ppe', 'bring.vehicle'].map((key) => (
              <List.Item key={key}>{t(key)}</List.Item>
            ))}
          </List>
        </Section>

        <Section title={t('arrival.title')}>
          <List size="sm" spacing={6}>
            <List.Item>{t('arrival.early')}</List.Item>
            <List.Item>{t('arrival.window', { minutes: BOOKING_WINDOW_MIN })}</List.Item>
            <List.Item>{t('arrival.checkIn')}</List.Item>
            <List.Item>{t('arrival.leave')}</List.Item>
          </List>
        </Section>

        <Section title={t('change.title')}>
          <Text size="sm">
            {t('change.text')}{' '}
            <Anchor component={Link} to="/book/terms" size="sm">
              {t('change.link')}
            </Anchor>
            {spaceBefore(after)}
            {after}
          </Text>
        </Section>

        <Section title={t('contacts')}>
          <HelpContacts />
        </Section>

        <Button component={Link} to="/book/request" leftSection={<IconCalendarPlus size={18} aria-hidden />} size="md" style={{ alignSelf: 'flex-start' }}>
          {t('book')}
        </Button>
      </Stack>
    </Container>
  );
}

/** The page with its texts (the help namespace) in the haulier's language. */
export default function BookingHelpRoute() {
  return (
    <I18nNamespace catalogue={helpCatalogue} fallback={<PageLoader />}>
      <BookingHelpPage />
    </I18nNamespace>
  );
}
