import { Alert, Button, Container, Group, Loader, Text } from '@mantine/core';
import { IconAlertCircle, IconBuildingSkyscraper } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePublicOrganizations } from '../api/get-public-organizations';
import type { CreatedBooking, PublicOrganization } from '../api/types';
import { BookingRequestForm } from '../components/booking-request-form';
import { FormSection } from '../components/form-section';
import { PageHeader } from '../components/page-header';
import { alertStyles } from '../utils/styles';
import { usePageTitle } from '../../../lib/use-page-title';
import { SelectField } from '../../../components/ui/select-field';
import { useT } from '../../../i18n/index';
import { useOrganizationDefaultLanguage } from '../../../i18n/index';
import { useBookingInfo } from '../api/get-booking-info';

// The confirmation (with its table of the booking) is only needed after a submit: it loads then,
// not with the form.
const loadBookingSubmitted = () => import('../components/booking-submitted');
const BookingSubmitted = lazy(() => loadBookingSubmitted().then((m) => ({ default: m.BookingSubmitted })));

type Submitted = { booking: CreatedBooking; tsrNumber: string };

/**
 * Which organization the request is for: `?org=` preselects it; a single active organization is
 * chosen automatically; otherwise the haulier picks one in the 'Select Organization' card.
 */
function resolveOrganization(orgs: PublicOrganization[] | undefined, orgParam: string | null, chosenId: string) {
  const paramOrg = orgParam ? orgs?.find((o) => o.id === orgParam) : undefined;
  const isParamUnknown = !!orgParam && !!orgs && !paramOrg;
  if (paramOrg) return { orgId: paramOrg.id, isSelectShown: false, isParamUnknown };
  if (orgs && orgs.length === 1) return { orgId: orgs[0].id, isSelectShown: false, isParamUnknown };
  const chosen = orgs?.find((o) => o.id === chosenId);
  return { orgId: chosen?.id ?? null, isSelectShown: !!orgs && orgs.length > 1, isParamUnknown };
}

/** /book/request */
export default function BookingRequestPage() {
  const { t } = useT('portal');
  usePageTitle(t('request.title'));
  // The organization's portal language (issue 27), when the haulier has not chosen one on this device.
  const bookingInfo = useBookingInfo();
  const [params] = useSearchParams();
  const orgParam = params.get('org');
  const organizations = usePublicOrganizations();
  const [chosenOrgId, setChosenOrgId] = useState('');
  const [submitted, setSubmitted] = useState<Submitted | null>(null);
  const { orgId, isSelectShown, isParamUnknown } = resolveOrganization(organizations.data, orgParam, chosenOrgId);
  const orgName = organizations.data?.find((o) => o.id === orgId)?.name;
  const infoOrg = bookingInfo.data?.organizations.find((o) => o.id === orgId) as { defaultLanguage?: string } | undefined;
  useOrganizationDefaultLanguage(infoOrg?.defaultLanguage ?? (bookingInfo.data as { defaultLanguage?: string } | undefined)?.defaultLanguage);

  if (submitted) {
    return (
      <Container size="md" py="xl">
        <Suspense fallback={<Loader aria-label={t('common.loading')} />}>
          <BookingSubmitted booking={submitted.booking} tsrNumber={submitted.tsrNumber} />
        </Suspense>
      </Container>
    );
  }

  const organizationSection = isSelectShown ? (
    <FormSection
      title={t('request.selectOrgTitle')}
      icon={<IconBuildingSkyscraper size={22} color="var(--mantine-primary-color-filled)" aria-hidden />}
      description={t('request.selectOrgText')}
    >
      {isParamUnknown ? (
        <Alert color="orange" variant="light" styles={alertStyles} mb="md" icon={<IconAlertCircle size={18} aria-hidden />}>
          {t('request.unknownOrg')}
        </Alert>
      ) : null}
      <SelectField
        label={t('request.organization')}
        withAsterisk
        value={chosenOrgId}
        onChange={(e) => setChosenOrgId(e.currentTarget.value)}
        data={[{ value: '', label: t('request.selectOrg') }, ...(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))]}
      />
    </FormSection>
  ) : null;

  return (
    <Container size="md" py="xl">
      <PageHeader
        title={t('request.title')}
        description={
          orgName && !isSelectShown
            ? t('request.bookingWith', { name: orgName })
            : t('request.required')
        }
        backTo="/book"
      />
      {organizations.isPending ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('common.loading')}</Text>
        </Group>
      ) : organizations.isError ? (
        <Alert color="red" variant="light" styles={alertStyles} title={t('request.orgsFailed')} icon={<IconAlertCircle size={18} aria-hidden />}>
          <Text size="sm" mb="xs">
            {organizations.error.message || t('request.orgsFailed')}
          </Text>
          <Button size="xs" variant="default" onClick={() => void organizations.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : organizations.data.length === 0 ? (
        <Alert color="orange" variant="light" styles={alertStyles} title={t('request.noOrgsTitle')} icon={<IconAlertCircle size={18} aria-hidden />}>
          {t('request.noOrgsText')}
        </Alert>
      ) : (
        <BookingRequestForm
          orgId={orgId}
          organizationSection={organizationSection}
          onSubmitted={(booking, tsrNumber) => {
            setSubmitted({ booking, tsrNumber });
            window.scrollTo({ top: 0 });
          }}
        />
      )}
    </Container>
  );
}
