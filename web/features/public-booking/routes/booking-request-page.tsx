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
import type { BookingRequest } from '../../../../domain/booking-request';
import { useHaulierMe } from '../../haulier-account/api/get-haulier-me';
import { useRebookValues } from '../../haulier-account/hooks/use-rebook-values';
import { SaveVehicleOffer, SavedDetailsPicker } from '../components/saved-details';
import { useT } from '../../../i18n/index';
import { I18nNamespace, useOrganizationDefaultLanguage } from '../../../i18n/index';
import { PageLoader } from '../../../components/ui/page-loader';
import { useBookingInfo } from '../api/get-booking-info';
import { useTranslateMessage } from '../../../i18n/validation';

// The confirmation (with its table of the booking) is only needed after a submit: it loads then,
// not with the form.
const loadBookingSubmitted = () => import('../components/booking-submitted');
const BookingSubmitted = lazy(() => loadBookingSubmitted().then((m) => ({ default: m.BookingSubmitted })));

type Submitted = { booking: CreatedBooking; tsrNumber: string; request?: BookingRequest };

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

// The saved details and the rebooking notice are the account namespace's texts: only a signed-in
// haulier sees them, so they are fetched once the haulier is known to be signed in, not with the
// form (issue 27: the form's first load carries the portal's texts only).
const loadAccountCatalogue = () => import('virtual:i18n-namespace/account');

/** The saved details' parts (nothing for a haulier who is not signed in), with the account texts. */
function ForSignedInHaulier({ children }: { children: React.ReactNode }) {
  const me = useHaulierMe();
  if (!me.data) return null;
  return <I18nNamespace catalogue={loadAccountCatalogue}>{children}</I18nNamespace>;
}

/** /book/request; a rebooking (?rebook=…, from "My bookings") waits for the account texts. */
export default function BookingRequestRoute() {
  const [params] = useSearchParams();
  if (!params.get('rebook')) return <BookingRequestPage />;
  return (
    <I18nNamespace catalogue={loadAccountCatalogue} fallback={<PageLoader />}>
      <BookingRequestPage />
    </I18nNamespace>
  );
}

function BookingRequestPage() {
  const { t } = useT('portal');
  const translateMessage = useTranslateMessage();
  usePageTitle(t('request.title'));
  // The organization's portal language (issue 27), when the haulier has not chosen one on this device.
  const bookingInfo = useBookingInfo();
  const [params] = useSearchParams();
  // A signed-in haulier's rebooking (?rebook=<booking id>): the form starts from that booking.
  const rebook = useRebookValues(params.get('rebook'));
  const orgParam = params.get('org') ?? rebook.orgId;
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
        <ForSignedInHaulier>
          <SaveVehicleOffer vehicle={submitted.request ?? null} />
        </ForSignedInHaulier>
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
      {rebook.notice ? (
        <Alert color="indigo" variant="light" styles={alertStyles} mb="md" role="status">
          {rebook.notice}
        </Alert>
      ) : null}
      {rebook.failure ? (
        <Alert color="orange" variant="light" styles={alertStyles} mb="md" icon={<IconAlertCircle size={18} aria-hidden />}>
          {rebook.failure}
        </Alert>
      ) : null}
      {organizations.isPending || rebook.isLoading ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('common.loading')}</Text>
        </Group>
      ) : organizations.isError ? (
        <Alert color="red" variant="light" styles={alertStyles} title={t('request.orgsFailed')} icon={<IconAlertCircle size={18} aria-hidden />}>
          <Text size="sm" mb="xs">
            {organizations.error.message ? translateMessage(organizations.error.message) : t('request.orgsFailed')}
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
          key={rebook.values ? 'rebook' : 'new'}
          orgId={orgId}
          organizationSection={organizationSection}
          initialValues={rebook.values ?? undefined}
          savedDetails={(apply) => (
            <ForSignedInHaulier>
              <SavedDetailsPicker apply={apply} />
            </ForSignedInHaulier>
          )}
          onSubmitted={(booking, tsrNumber, request) => {
            setSubmitted({ booking, tsrNumber, request });
            window.scrollTo({ top: 0 });
          }}
        />
      )}
    </Container>
  );
}
