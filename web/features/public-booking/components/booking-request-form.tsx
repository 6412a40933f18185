import { NO_AVAILABLE_BAY } from '../../../../domain/booking-messages';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { DateField } from '../../../components/ui/date-field';
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
import { useCallback, useState } from 'react';
import type { BookingRequest, BookingRequestInput } from '../../../../domain/booking-request';
import { MAX_VEHICLE_HEIGHT_M, MAX_VEHICLE_LENGTH_M, normalizeDuration } from '../../../../domain/booking-request-limits';
import { DEFAULT_DURATION_MIN, MAX_DURATION_MIN, MIN_DURATION_MIN } from '../../../../domain/constants';
import {
  BOOKING_TYPES,
  BOOKING_TYPE_LABELS,
  SPECIAL_ACCESS_LABELS,
  SPECIAL_ACCESS_NEEDS,
  TSR_SYSTEM_LABELS,
  TSR_SYSTEM_TYPES,
  VEHICLE_TYPES,
  VEHICLE_TYPE_LABELS,
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
const growingTextarea = { input: { fieldSizing: 'content', minHeight: 'calc(3lh + 1rem)', maxHeight: 'calc(8lh + 1rem)', resize: 'vertical' } } as const;


/** /book/request: the booking request, card by card in the spec's order. */
export function BookingRequestForm({ orgId, organizationSection, onSubmitted, initialValues, savedDetails }: BookingRequestFormProps) {
  const form = useForm<BookingFormValues>({ mode: 'controlled', initialValues: { ...BOOKING_FORM_DEFAULTS, ...initialValues } });
  const [documents, setDocuments] = useState<File[]>([]);
  const [idempotencyKey, renewIdempotencyKey] = useIdempotencyKey();
  const createBooking = useCreateBooking();
  const values = form.values;

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

  const dateRange = bookableDateRange(chosenSiteId ? orgSites.filter((s) => s.id === chosenSiteId) : orgSites);

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
      toast.error('Submission Failed', 'The form could not be checked: reload the page and try again.');
      return;
    }
    const result = validator.validateBookingRequest(input);
    if (!result.ok) {
      form.setErrors(validator.fieldErrors(input));
      toast.error('Validation Error', validator.formatValidationError(result.messages));
      return;
    }
    const tsrNumber = result.data.tsrNumber;
    createBooking.mutate(
      { data: result.data, documents, idempotencyKey },
      {
        onSuccess: (booking) => {
          toast.clear(); // no stale 'Validation Error' beside the success
          toast.success('Booking Submitted Successfully', `Your booking request has been submitted. Reference: ${tsrNumber}`);
          form.reset();
          setDocuments([]);
          renewIdempotencyKey();
          onSubmitted(booking, tsrNumber, result.data);
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) {
            toast.error('Submission Failed', 'Failed to submit booking request');
          } else if (error.code === 'no_available_bay') {
            toast.error('No Available Bay', NO_AVAILABLE_BAY);
            void availability.refetch();
          } else if (error.code === 'validation_error') {
            toast.error('Validation Error', error.message);
          } else {
            toast.error('Submission Failed', error.message || 'Failed to submit booking request');
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
    <form onSubmit={(event) => void handleSubmit(event)} onFocusCapture={() => void loadRequestValidator().catch(() => undefined)} noValidate aria-label="Booking request">
      <Stack gap="lg">
        {organizationSection}
        {savedDetails?.(form.setValues)}

        <FormSection title="TSR Information" icon={<IconTicket size={22} color={iconColor} aria-hidden />}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="TSR Number"
              placeholder="e.g. TSR-2025-00123"
              withAsterisk
              autoComplete="off"
              {...form.getInputProps('tsrNumber')}
            />
            <SelectField
              label="TSR System Type"
              data={[
                { value: '', label: 'Select system' },
                ...TSR_SYSTEM_TYPES.map((t) => ({ value: t, label: TSR_SYSTEM_LABELS[t] })),
              ]}
              {...form.getInputProps('tsrSystemType')}
            />
          </SimpleGrid>
          <TextInput
            mt="md"
            label="TSR URL"
            description="Optional link to the request in your scheduling system"
            placeholder="https://"
            type="url"
            inputMode="url"
            {...form.getInputProps('tsrUrl')}
          />
        </FormSection>

        <FormSection title="Company & Contact Details" icon={<IconBuilding size={22} color={iconColor} aria-hidden />}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Company Name" withAsterisk autoComplete="organization" {...form.getInputProps('tenantName')} />
            <TextInput label="Contact Name" withAsterisk autoComplete="name" {...form.getInputProps('contactName')} />
            <TextInput label="Email" type="email" withAsterisk autoComplete="email" {...form.getInputProps('tenantEmail')} />
            <TextInput label="Phone" type="tel" autoComplete="tel" {...form.getInputProps('tenantPhone')} />
          </SimpleGrid>
        </FormSection>

        <FormSection title="Booking Details" icon={<IconCalendarEvent size={22} color={iconColor} aria-hidden />}>
          <Stack gap="md">
            <Radio.Group label="Booking Type" {...form.getInputProps('bookingType')}>
              <Group mt={6} gap="lg">
                {BOOKING_TYPES.map((t) => (
                  <Radio key={t} value={t} label={BOOKING_TYPE_LABELS[t]} />
                ))}
              </Group>
            </Radio.Group>
            {siteChoice ? (
              <SelectField
                label="Site"
                description="This organization lets you choose the site: the time slots are those of the chosen site."
                data={[{ value: '', label: 'Any site (best fit)' }, ...siteChoice.map((s) => ({ value: s.id, label: s.name }))]}
                value={values.siteId}
                onChange={(event) => {
                  setFieldValue('siteId', event.currentTarget.value);
                  setFieldValue('slot', null);
                }}
              />
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <DateField
                label="Date"
                withAsterisk
                minDate={dateRange?.minDate ?? todayIsoDate()}
                maxDate={dateRange?.maxDate}
                value={values.date}
                onChange={(date) => {
                  setFieldValue('date', date);
                  setFieldValue('slot', null);
                }}
                error={form.errors.date}
              />
              <TextInput
                label="Expected Duration (minutes)"
                type="number"
                inputMode="numeric"
                min={MIN_DURATION_MIN}
                max={MAX_DURATION_MIN}
                step={15}
                {...form.getInputProps('expectedDurationMin')}
                onBlur={normalizeDurationOnBlur}
              />
            </SimpleGrid>
            {values.date && !orgId ? (
              <Text size="sm" c="gray.7">
                Choose an organization to see the available time slots.
              </Text>
            ) : values.date ? (
              <SlotGrid
                availability={availability.data}
                isFetching={availability.isFetching}
                isError={availability.isError}
                selectedSlot={values.slot}
                onSelect={(time) => setFieldValue('slot', time)}
                label="Time Slot"
                clearedNotice={availability.clearedNotice}
              />
            ) : (
              <Text size="sm" c="gray.7">
                Choose a date to see the available time slots.
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
          title="Vehicle Information"
          icon={<IconTruck size={22} color={iconColor} aria-hidden />}
          description="Bays are matched to your vehicle's height, length and special access needs."
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <SelectField
              label="Vehicle Type"
              withAsterisk
              data={[{ value: '', label: 'Select vehicle type' }, ...VEHICLE_TYPES.map((t) => ({ value: t, label: VEHICLE_TYPE_LABELS[t] }))]}
              {...form.getInputProps('vehicleType')}
            />
            <TextInput
              label="Vehicle Registration"
              withAsterisk
              autoComplete="off"
              autoCapitalize="characters"
              {...form.getInputProps('vehicleRegistration')}
              onChange={onRegistrationChange}
            />
            <TextInput
              label="Vehicle Height (m)"
              withAsterisk
              type="number"
              inputMode="decimal"
              min={0}
              max={MAX_VEHICLE_HEIGHT_M}
              step={0.01}
              {...form.getInputProps('vehicleHeightM')}
            />
            <TextInput
              label="Vehicle Length (m)"
              type="number"
              inputMode="decimal"
              min={0}
              max={MAX_VEHICLE_LENGTH_M}
              step={0.01}
              {...form.getInputProps('vehicleLengthM')}
            />
          </SimpleGrid>
          <Checkbox.Group mt="md" label="Special Access Needs" {...form.getInputProps('specialAccessNeeds')}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt={6}>
              {SPECIAL_ACCESS_NEEDS.map((need) => (
                <Checkbox key={need} value={need} label={SPECIAL_ACCESS_LABELS[need]} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
        </FormSection>

        <FormSection title="Goods Information" icon={<IconPackage size={22} color={iconColor} aria-hidden />}>
          <Textarea
            label="Goods Description"
            placeholder="What is being delivered or collected: items, pallets, weight, handling notes"
            rows={3}
            styles={growingTextarea}
            {...form.getInputProps('goodsDescription')}
          />
        </FormSection>

        <FormSection
          title="Document Upload"
          icon={<IconFileUpload size={22} color={iconColor} aria-hidden />}
          description="Consignment note, dangerous goods declaration, induction certificate or other documents for this booking."
        >
          <DocumentUpload files={documents} onChange={setDocuments} disabled={isBusy} />
        </FormSection>

        <FormSection title="Compliance & Terms" icon={<IconShieldCheck size={22} color={iconColor} aria-hidden />}>
          <Stack gap="sm">
            <Checkbox
              label="The driver has completed the site induction"
              {...form.getInputProps('driverInductionCompleted', { type: 'checkbox' })}
            />
            <Checkbox
              label={
                <>
                  I accept the{' '}
                  <Anchor href="/book/terms" target="_blank" rel="noopener" inherit>
                    terms and conditions
                  </Anchor>
                </>
              }
              {...form.getInputProps('termsAccepted', { type: 'checkbox' })}
            />
          </Stack>
        </FormSection>

        <FormSection title="Additional Notes" icon={<IconNotes size={22} color={iconColor} aria-hidden />}>
          <Textarea
            label="Notes"
            placeholder="Anything the site should know before you arrive"
            rows={3}
            styles={growingTextarea}
            {...form.getInputProps('notes')}
          />
        </FormSection>

        <Stack gap={4} align="stretch">
          <Button type="submit" size="md" disabled={!canSubmit}>
            {isBusy ? 'Submitting...' : 'Submit Booking Request'}
          </Button>
          {!values.date || !values.slot ? (
            <Text size="sm" c="gray.7" ta="center">
              Choose a date and a time slot to submit.
            </Text>
          ) : null}
        </Stack>
      </Stack>
    </form>
  );
}
