import { NO_AVAILABLE_BAY } from '../../../../domain/booking-messages';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import {
  LightCheckbox,
  LightCheckboxGroup,
  LightGrid,
  LightRadio,
  LightRadioGroup,
  LightTextInput,
  LightTextarea,
  type LightTextInputProps,
} from '../../../components/ui/light-fields';
import { useForm } from '@mantine/form';
import {
  IconBuilding,
  IconCalendarEvent,
  IconFileUpload,
  IconNotes,
  IconPackage,
  IconShieldCheck,
  IconTicket,
  IconTruck,
} from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import type { BookingRequest, BookingRequestInput } from '../../../../domain/booking-request';
import { MAX_VEHICLE_HEIGHT_M, MAX_VEHICLE_LENGTH_M, normalizeDuration } from '../../../../domain/booking-request-limits';
import { DEFAULT_DURATION_MIN, MAX_DURATION_MIN, MIN_DURATION_MIN } from '../../../../domain/constants';
import {
  BOOKING_TYPES,
  SPECIAL_ACCESS_NEEDS,
  TSR_SYSTEM_LABELS,
  TSR_SYSTEM_TYPES,
  VEHICLE_TYPES,
  type BookingType,
} from '../../../../domain/enums';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useCreateBooking } from '../api/create-booking';
import type { CreatedBooking } from '../api/types';
import { useBookingAvailability } from '../hooks/use-booking-availability';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import { todayIsoDate } from '../utils/format';
import { bookableDateRange } from '../utils/site-dates';
import { useBookingInfo } from '../api/get-booking-info';
import { DocumentUpload } from './document-upload';
import { FormSection } from './form-section';
import { SlotGrid } from './slot-grid';
import { SelectField } from '../../../components/ui/select-field';
import { useT } from '../../../i18n/index';
import { useTranslateMessage } from '../../../i18n/validation';

/** Spec §3 "Booking request form state" (the organization is chosen outside the form). */
export type BookingFormValues = {
  tsrNumber: string;
  tsrSystemType: string;
  tsrUrl: string;
  tenantName: string;
  contactName: string;
  tenantEmail: string;
  tenantPhone: string;
  bookingType: BookingType;
  /** The chosen site ('' = any site, best fit), offered when the organization lets hauliers choose. */
  siteId: string;
  date: string | null;
  slot: string | null;
  expectedDurationMin: number | string;
  vehicleType: string;
  vehicleRegistration: string;
  vehicleHeightM: number | string;
  vehicleLengthM: number | string;
  specialAccessNeeds: string[];
  goodsDescription: string;
  driverInductionCompleted: boolean;
  termsAccepted: boolean;
  notes: string;
};

export const BOOKING_FORM_DEFAULTS: BookingFormValues = {
  tsrNumber: '',
  tsrSystemType: '',
  tsrUrl: '',
  tenantName: '',
  contactName: '',
  tenantEmail: '',
  tenantPhone: '',
  bookingType: 'delivery',
  siteId: '',
  date: null,
  slot: null,
  expectedDurationMin: DEFAULT_DURATION_MIN,
  vehicleType: '',
  vehicleRegistration: '',
  vehicleHeightM: '',
  vehicleLengthM: '',
  specialAccessNeeds: [],
  goodsDescription: '',
  driverInductionCompleted: false,
  termsAccepted: false,
  notes: '',
};


function optionalNumber(value: number | string): number | string | undefined {
  return value === '' ? undefined : value;
}

/** The form's answers as the shared schema's input. */
export function toBookingRequestInput(
  values: BookingFormValues,
  orgId: string | null,
  idempotencyKey: string,
): BookingRequestInput {
  return {
    orgId: orgId ?? '',
    tsrNumber: values.tsrNumber,
    tsrSystemType: values.tsrSystemType || undefined,
    tsrUrl: values.tsrUrl,
    tenantName: values.tenantName,
    contactName: values.contactName,
    tenantEmail: values.tenantEmail,
    tenantPhone: values.tenantPhone,
    bookingType: values.bookingType,
    date: values.date ?? '',
    slot: values.slot ?? '',
    expectedDurationMin: normalizeDuration(values.expectedDurationMin),
    vehicleType: values.vehicleType,
    vehicleRegistration: values.vehicleRegistration,
    vehicleHeightM: optionalNumber(values.vehicleHeightM),
    vehicleLengthM: optionalNumber(values.vehicleLengthM),
    specialAccessNeeds: values.specialAccessNeeds as BookingRequestInput['specialAccessNeeds'],
    goodsDescription: values.goodsDescription,
    driverInductionCompleted: values.driverInductionCompleted as true,
    termsAccepted: values.termsAccepted as true,
    notes: values.notes,
    idempotencyKey,
  };
}

/** The schema's checks (zod), fetched once: when the haulier first focuses a field, at the latest on submit. */
const loadRequestValidator = () => import('../utils/request-validator');

export type BookingRequestFormProps = {
  /** The organization the request is for; null until one is chosen. */
  orgId: string | null;
  /** Rendered first: the 'Select Organization' card, when there is a choice to make. */
  organizationSection?: React.ReactNode;
  onSubmitted: (booking: CreatedBooking, tsrNumber: string, request: BookingRequest) => void;
  /** Starting values over the defaults (a signed-in haulier's rebooking: all but date and slot). */
  initialValues?: Partial<BookingFormValues>;
  /** Rendered after the organization card with a setter of the form's values (a signed-in haulier's saved details). */
  savedDetails?: (apply: (values: Partial<BookingFormValues>) => void) => React.ReactNode;
};

const iconColor = 'var(--mantine-primary-color-filled)';

/**
 * A text box that grows with its text from 3 rows to about 8, in CSS (field-sizing). Mantine's
 * `autosize` measured a hidden copy of the box with getComputedStyle on mount, which forced the
 * whole page's style and layout before the form could paint: ~0.13 s of a throttled phone's
 * CPU (issue 25). Where field-sizing is not supported the box keeps 3 rows and can be resized.
 */
const growingTextarea = { fieldSizing: 'content', minHeight: 'calc(3lh + 1rem)', maxHeight: 'calc(8lh + 1rem)', resize: 'vertical' } as React.CSSProperties;


/** Set once the browser's time-zone data has been loaded (the first Intl date format with a time zone). */
let isTimeZoneDataWarm = false;

/**
 * The date field limited to the days the sites offer, in the sites' own calendars. Those need the
 * browser's time-zone data, whose first use costs ~0.15 s on a slow phone: the form paints first
 * with the browser's today as the earliest day, and the sites' range follows a moment later (in
 * this field only, not the whole form); after that it is worked out on every render as before.
 */
function BookableDateField({
  sites,
  value,
  onChange,
  ...props
}: Omit<LightTextInputProps, 'value' | 'onChange' | 'type' | 'min' | 'max'> & {
  sites: Parameters<typeof bookableDateRange>[0];
  /** 'YYYY-MM-DD', or null when no day is chosen. */
  value: string | null;
  onChange: (date: string | null) => void;
}) {
  const [isWarm, setWarm] = useState(isTimeZoneDataWarm);
  useEffect(() => {
    if (isWarm) return;
    const timer = setTimeout(() => {
      isTimeZoneDataWarm = true;
      setWarm(true);
    }, 0);
    return () => clearTimeout(timer);
  }, [isWarm]);
  const range = isWarm ? bookableDateRange(sites) : null;
  // The browser's own date input (its picker on desktop, the system wheel on phones), as DateField.
  return (
    <LightTextInput
      {...props}
      type="date"
      min={range?.minDate ?? todayIsoDate()}
      max={range?.maxDate}
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value || null)}
    />
  );
}

/** /book/request: the booking request, card by card in the spec's order. */
export function BookingRequestForm({ orgId, organizationSection, onSubmitted, initialValues, savedDetails }: BookingRequestFormProps) {
  const form = useForm<BookingFormValues>({ mode: 'controlled', initialValues: { ...BOOKING_FORM_DEFAULTS, ...initialValues } });
  const [documents, setDocuments] = useState<File[]>([]);
  const [idempotencyKey, renewIdempotencyKey] = useIdempotencyKey();
  const createBooking = useCreateBooking();
  const values = form.values;
  const { t, language } = useT('portal');
  const translateMessage = useTranslateMessage();

  const { setFieldValue } = form;
  const clearSlot = useCallback(() => setFieldValue('slot', null), [setFieldValue]);
  const bookingInfo = useBookingInfo();
  const org = bookingInfo.data?.organizations.find((o) => o.id === orgId);
  const orgSites = org?.sites ?? [];
  // Only a site of this organization, and only when it lets hauliers choose (else best fit over all sites).
  const siteChoice = org?.hauliersChooseSite && orgSites.length > 1 ? orgSites : null;
  const chosenSiteId = siteChoice?.some((s) => s.id === values.siteId) ? values.siteId : null;
  const availability = useBookingAvailability(
    {
      orgId,
      siteId: chosenSiteId,
      date: values.date,
      durationMin: values.expectedDurationMin,
      vehicleHeightM: values.vehicleHeightM,
      vehicleLengthM: values.vehicleLengthM,
      vehicleType: values.vehicleType,
      specialAccessNeeds: values.specialAccessNeeds,
    },
    values.slot,
    clearSlot,
  );

  const dateSites = chosenSiteId ? orgSites.filter((s) => s.id === chosenSiteId) : orgSites;

  const isBusy = createBooking.isPending;
  const canSubmit = !isBusy && !!values.date && !!values.slot;

  const handleSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isBusy) return;
    const input = { ...toBookingRequestInput(values, orgId, idempotencyKey), ...(chosenSiteId ? { siteId: chosenSiteId } : {}) };
    let validator;
    try {
      validator = await loadRequestValidator();
    } catch {
      toast.error(t('toast.submissionFailed'), t('toast.formNotChecked'));
      return;
    }
    const result = validator.validateBookingRequest(input);
    if (!result.ok) {
      form.setErrors(Object.fromEntries(Object.entries(validator.fieldErrors(input)).map(([field, message]) => [field, typeof message === 'string' ? translateMessage(message) : message])));
      toast.error(t('toast.validationError'), validator.formatValidationError(result.messages.map(translateMessage)));
      return;
    }
    const tsrNumber = result.data.tsrNumber;
    createBooking.mutate(
      { data: { ...result.data, language }, documents, idempotencyKey },
      {
        onSuccess: (booking) => {
          toast.clear(); // no stale 'Validation Error' beside the success
          toast.success(t('toast.submitted'), t('toast.submittedText', { reference: tsrNumber }));
          form.reset();
          setDocuments([]);
          renewIdempotencyKey();
          onSubmitted(booking, tsrNumber, result.data);
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) {
            toast.error(t('toast.submissionFailed'), t('toast.failedToSubmit'));
          } else if (error.code === 'no_available_bay') {
            toast.error(t('toast.noAvailableBay'), translateMessage(NO_AVAILABLE_BAY));
            void availability.refetch();
          } else if (error.code === 'validation_error') {
            // The server joins the schema's messages with ', ': each is said in the chosen language.
            const messages = (error.details as { messages?: unknown } | undefined)?.messages;
            toast.error(
              t('toast.validationError'),
              Array.isArray(messages) && messages.every((m) => typeof m === 'string') ? messages.map(translateMessage).join(', ') : translateMessage(error.message),
            );
          } else {
            toast.error(t('toast.submissionFailed'), error.message ? translateMessage(error.message) : t('toast.failedToSubmit'));
          }
        },
      },
    );
  };

  const onRegistrationChange = (event: React.ChangeEvent<HTMLInputElement>) => {
    // Upper-case in place so the caret stays where the haulier is typing.
    const el = event.currentTarget;
    const upper = el.value.toUpperCase();
    if (upper !== el.value) {
      const { selectionStart, selectionEnd } = el;
      el.value = upper;
      el.setSelectionRange(selectionStart, selectionEnd);
    }
    setFieldValue('vehicleRegistration', upper);
  };

  const normalizeDurationOnBlur = () => {
    const duration = normalizeDuration(values.expectedDurationMin);
    setFieldValue('expectedDurationMin', Math.min(MAX_DURATION_MIN, Math.max(MIN_DURATION_MIN, duration)));
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} onFocusCapture={() => void loadRequestValidator().catch(() => undefined)} noValidate aria-label={t('form.aria')}>
      <Stack gap="lg">
        {organizationSection}
        {savedDetails?.(form.setValues)}

        <FormSection title={t('form.tsrSection')} icon={<IconTicket size={22} color={iconColor} aria-hidden />}>
          <LightGrid twoFrom="sm">
            <LightTextInput
              label={t('form.tsrNumber')}
              placeholder={t('form.tsrNumberPlaceholder')}
              withAsterisk
              autoComplete="off"
              {...form.getInputProps('tsrNumber')}
            />
            <SelectField
              label={t('form.tsrSystemType')}
              data={[
                { value: '', label: t('form.selectSystem') },
                ...TSR_SYSTEM_TYPES.map((type) => ({ value: type, label: type === 'other' ? t('tsrSystem.other') : TSR_SYSTEM_LABELS[type] })),
              ]}
              {...form.getInputProps('tsrSystemType')}
            />
          </LightGrid>
          <LightTextInput
            mt="md"
            label={t('form.tsrUrl')}
            description={t('form.tsrUrlHelp')}
            placeholder="https://"
            type="url"
            inputMode="url"
            {...form.getInputProps('tsrUrl')}
          />
        </FormSection>

        <FormSection title={t('form.companySection')} icon={<IconBuilding size={22} color={iconColor} aria-hidden />}>
          <LightGrid twoFrom="sm">
            <LightTextInput label={t('form.companyName')} withAsterisk autoComplete="organization" {...form.getInputProps('tenantName')} />
            <LightTextInput label={t('form.contactName')} withAsterisk autoComplete="name" {...form.getInputProps('contactName')} />
            <LightTextInput label={t('form.email')} type="email" withAsterisk autoComplete="email" {...form.getInputProps('tenantEmail')} />
            <LightTextInput label={t('form.phone')} type="tel" autoComplete="tel" {...form.getInputProps('tenantPhone')} />
          </LightGrid>
        </FormSection>

        <FormSection title={t('form.bookingSection')} icon={<IconCalendarEvent size={22} color={iconColor} aria-hidden />}>
          <Stack gap="md">
            <LightRadioGroup label={t('form.bookingType')} {...form.getInputProps('bookingType')} value={values.bookingType}>
              <Group mt={6} gap="lg">
                {BOOKING_TYPES.map((type) => (
                  <LightRadio key={type} value={type} label={t(`bookingType.${type}`)} />
                ))}
              </Group>
            </LightRadioGroup>
            {siteChoice ? (
              <SelectField
                label={t('form.site')}
                description={t('form.siteHelp')}
                data={[{ value: '', label: t('form.anySite') }, ...siteChoice.map((s) => ({ value: s.id, label: s.name }))]}
                value={values.siteId}
                onChange={(event) => {
                  setFieldValue('siteId', event.currentTarget.value);
                  setFieldValue('slot', null);
                }}
              />
            ) : null}
            <LightGrid twoFrom="sm">
              <BookableDateField
                sites={dateSites}
                label={t('form.date')}
                withAsterisk
                value={values.date}
                onChange={(date) => {
                  setFieldValue('date', date);
                  setFieldValue('slot', null);
                }}
                error={form.errors.date}
              />
              <LightTextInput
                label={t('form.duration')}
                type="number"
                inputMode="numeric"
                min={MIN_DURATION_MIN}
                max={MAX_DURATION_MIN}
                step={15}
                {...form.getInputProps('expectedDurationMin')}
                onBlur={normalizeDurationOnBlur}
              />
            </LightGrid>
            {values.date && !orgId ? (
              <Text size="sm" c="gray.7">
                {t('form.chooseOrgFirst')}
              </Text>
            ) : values.date ? (
              <SlotGrid
                availability={availability.data}
                isFetching={availability.isFetching}
                isError={availability.isError}
                selectedSlot={values.slot}
                onSelect={(time) => setFieldValue('slot', time)}
                label={t('form.timeSlot')}
                clearedNotice={availability.clearedNotice}
              />
            ) : (
              <Text size="sm" c="gray.7">
                {t('form.chooseDateFirst')}
              </Text>
            )}
            {form.errors.slot && values.date ? (
              <Text size="sm" c="red.9" role="alert">
                {form.errors.slot}
              </Text>
            ) : null}
          </Stack>
        </FormSection>

        <FormSection
          title={t('form.vehicleSection')}
          icon={<IconTruck size={22} color={iconColor} aria-hidden />}
          description={t('form.vehicleHelp')}
        >
          <LightGrid twoFrom="sm">
            <SelectField
              label={t('form.vehicleType')}
              withAsterisk
              data={[{ value: '', label: t('form.selectVehicleType') }, ...VEHICLE_TYPES.map((type) => ({ value: type, label: t(`vehicleType.${type}`) }))]}
              {...form.getInputProps('vehicleType')}
            />
            <LightTextInput
              label={t('form.vehicleRegistration')}
              withAsterisk
              autoComplete="off"
              autoCapitalize="characters"
              {...form.getInputProps('vehicleRegistration')}
              onChange={onRegistrationChange}
            />
            <LightTextInput
              label={t('form.vehicleHeight')}
              withAsterisk
              type="number"
              inputMode="decimal"
              min={0}
              max={MAX_VEHICLE_HEIGHT_M}
              step={0.01}
              {...form.getInputProps('vehicleHeightM')}
            />
            <LightTextInput
              label={t('form.vehicleLength')}
              type="number"
              inputMode="decimal"
              min={0}
              max={MAX_VEHICLE_LENGTH_M}
              step={0.01}
              {...form.getInputProps('vehicleLengthM')}
            />
          </LightGrid>
          <LightCheckboxGroup mt="md" label={t('form.specialAccess')} {...form.getInputProps('specialAccessNeeds')} value={values.specialAccessNeeds}>
            <LightGrid twoFrom="xs" spacing="xs" mt="calc(0.375rem * var(--mantine-scale))">
              {SPECIAL_ACCESS_NEEDS.map((need) => (
                <LightCheckbox key={need} value={need} label={t(`specialAccess.${need}`)} />
              ))}
            </LightGrid>
          </LightCheckboxGroup>
        </FormSection>

        <FormSection title={t('form.goodsSection')} icon={<IconPackage size={22} color={iconColor} aria-hidden />}>
          <LightTextarea
            label={t('form.goodsDescription')}
            placeholder={t('form.goodsPlaceholder')}
            rows={3}
            style={growingTextarea}
            {...form.getInputProps('goodsDescription')}
          />
        </FormSection>

        <FormSection
          title={t('form.documentSection')}
          icon={<IconFileUpload size={22} color={iconColor} aria-hidden />}
          description={t('form.documentHelp')}
        >
          <DocumentUpload files={documents} onChange={setDocuments} disabled={isBusy} />
        </FormSection>

        <FormSection title={t('form.complianceSection')} icon={<IconShieldCheck size={22} color={iconColor} aria-hidden />}>
          <Stack gap="sm">
            <LightCheckbox
              label={t('form.induction')}
              {...form.getInputProps('driverInductionCompleted', { type: 'checkbox' })}
            />
            <LightCheckbox
              label={
                <>
                  {t('form.acceptTermsBefore')}{' '}
                  <Anchor href="/book/terms" target="_blank" rel="noopener" inherit>
                    {t('form.termsLink')}
                  </Anchor>
                </>
              }
              {...form.getInputProps('termsAccepted', { type: 'checkbox' })}
            />
          </Stack>
        </FormSection>

        <FormSection title={t('form.notesSection')} icon={<IconNotes size={22} color={iconColor} aria-hidden />}>
          <LightTextarea
            label={t('form.notes')}
            placeholder={t('form.notesPlaceholder')}
            rows={3}
            style={growingTextarea}
            {...form.getInputProps('notes')}
          />
        </FormSection>

        <Stack gap={4} align="stretch">
          <Button type="submit" size="md" disabled={!canSubmit}>
            {isBusy ? t('form.submitting') : t('form.submit')}
          </Button>
          {!values.date || !values.slot ? (
            <Text size="sm" c="gray.7" ta="center">
              {t('form.chooseDateAndSlot')}
            </Text>
          ) : null}
        </Stack>
      </Stack>
    </form>
  );
}
