import { Alert, Button, Card, Checkbox, Group, Modal, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DEFAULT_DURATION_MIN, MAX_DURATION_MIN, MIN_DURATION_MIN } from '../../../../domain/constants';
import { VEHICLE_TYPES, VEHICLE_TYPE_LABELS } from '../../../../domain/enums';
import { adminBookingSchema, type AdminBookingInput, type BookingDetail } from '../../../../domain/org-bookings';
import { formatSiteRange } from '../utils/booking-display';
import { DateField } from '../../../components/ui/date-field';
import { SelectField } from '../../../components/ui/select-field';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { createAdminBooking, previewAdminBooking } from '../api/org-bookings-api';
import { SiteAvailability, useSiteAvailability, type SiteTarget } from './site-availability';

type Values = {
  siteId: string;
  tsrNumber: string;
  tenantName: string;
  contactName: string;
  tenantEmail: string;
  tenantPhone: string;
  date: string | null;
  slot: string;
  expectedDurationMin: number | string;
  vehicleType: string;
  vehicleRegistration: string;
  vehicleHeightM: number | string;
  vehicleLengthM: number | string;
  goodsDescription: string;
  notes: string;
  driverInductionCompleted: boolean;
  termsAccepted: boolean;
  overrideMinAdvance: boolean;
  approve: boolean;
};

const INITIAL: Values = {
  siteId: '',
  tsrNumber: '',
  tenantName: '',
  contactName: '',
  tenantEmail: '',
  tenantPhone: '',
  date: null,
  slot: '09:00',
  expectedDurationMin: DEFAULT_DURATION_MIN,
  vehicleType: '',
  vehicleRegistration: '',
  vehicleHeightM: '',
  vehicleLengthM: '',
  goodsDescription: '',
  notes: '',
  driverInductionCompleted: false,
  termsAccepted: false,
  overrideMinAdvance: false,
  approve: true,
};

/** The form's answers as the shared schema's input (blank optional fields left out). */
function toInput(v: Values): AdminBookingInput {
  const blank = (s: string) => (s.trim() === '' ? undefined : s);
  return {
    siteId: v.siteId === '' ? undefined : v.siteId,
    tsrNumber: v.tsrNumber,
    tenantName: v.tenantName,
    contactName: v.contactName,
    tenantEmail: v.tenantEmail,
    tenantPhone: blank(v.tenantPhone),
    date: v.date ?? '',
    slot: v.slot,
    expectedDurationMin: v.expectedDurationMin as number,
    vehicleType: v.vehicleType as AdminBookingInput['vehicleType'],
    vehicleRegistration: v.vehicleRegistration,
    vehicleHeightM: v.vehicleHeightM === '' ? undefined : (v.vehicleHeightM as number),
    vehicleLengthM: v.vehicleLengthM === '' ? undefined : (v.vehicleLengthM as number),
    goodsDescription: blank(v.goodsDescription),
    notes: blank(v.notes),
    driverInductionCompleted: v.driverInductionCompleted as true,
    termsAccepted: v.termsAccepted as true,
    overrideMinAdvance: v.overrideMinAdvance,
    approve: v.approve,
  };
}

const validate = zodFormValidate(adminBookingSchema);

/** /org/bookings/new: staff book a slot for a tenant, under the portal's rules (the best-fitting free bay). */
export function NewBookingModal({
  orgId,
  sites,
  defaultSiteId,
  opened,
  onClose,
  onCreated,
}: {
  orgId: string;
  /** The organization's sites; the form books at the one chosen (the header's site to begin with). */
  sites: { id: string; name: string }[];
  defaultSiteId: string | null;
  opened: boolean;
  onClose: () => void;
  onCreated: (booking: BookingDetail) => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { ...INITIAL, siteId: defaultSiteId ?? sites[0]?.id ?? '' },
    validate: (values) => ({ ...validate(toInput(values)), ...(values.siteId === '' ? { siteId: 'Choose the site' } : {}) }),
  });
  // The header's site, once known (and again whenever it changes while the form is closed).
  const initialSiteId = defaultSiteId ?? sites[0]?.id ?? '';
  useEffect(() => {
    if (!opened || form.values.siteId === '') form.setFieldValue('siteId', initialSiteId);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialSiteId, opened]);
  const preview = useBayPreview(orgId, opened ? form.values : null);
  const perSite = useSiteAvailability(orgId, opened ? siteTargetOf(form.values) : null);
  const create = useMutation({
    mutationFn: (input: AdminBookingInput) => createAdminBooking(orgId, input),
    onSuccess: (booking) => {
      void queryClient.invalidateQueries({ queryKey: ['org', orgId] });
      toast.success(`Booking created at ${booking.siteName}`, `${booking.tsrNumber}: ${booking.siteName}, bay ${booking.bayName}.`);
      form.reset();
      form.setFieldValue('siteId', initialSiteId);
      onCreated(booking);
    },
    onError: (error) => {
      if (!applyApiFieldErrors(error, form.setFieldError)) {
        form.setErrors({ form: error instanceof ApiError ? error.message : 'The booking could not be created' });
      }
    },
  });
  const formError = form.errors.form;

  return (
    <Modal opened={opened} onClose={onClose} title="New booking" size="xl">
      <form noValidate onSubmit={form.onSubmit((values) => create.mutate(toInput(values)))}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Book a slot for a tenant. The same rules as the booking portal apply; the best-fitting free bay is chosen.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="TSR Number" withAsterisk {...form.getInputProps('tsrNumber')} />
            <TextInput label="Company Name" withAsterisk {...form.getInputProps('tenantName')} />
            <TextInput label="Contact Name" withAsterisk {...form.getInputProps('contactName')} />
            <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('tenantEmail')} />
            <TextInput label="Phone" type="tel" {...form.getInputProps('tenantPhone')} />
          </SimpleGrid>
          <SelectField
            label="Site"
            withAsterisk
            data={[{ value: '', label: 'Select site' }, ...sites.map((site) => ({ value: site.id, label: site.name }))]}
            {...form.getInputProps('siteId')}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <DateField label="Date" withAsterisk value={form.values.date} onChange={(d) => form.setFieldValue('date', d)} error={form.errors.date} />
            <TextInput label="Time" type="time" step={1800} withAsterisk {...form.getInputProps('slot')} />
            <TextInput label="Expected Duration (minutes)" type="number" min={MIN_DURATION_MIN} max={MAX_DURATION_MIN} step={15} {...form.getInputProps('expectedDurationMin')} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <SelectField
              label="Vehicle Type"
              withAsterisk
              data={[{ value: '', label: 'Select vehicle type' }, ...VEHICLE_TYPES.map((t) => ({ value: t, label: VEHICLE_TYPE_LABELS[t] }))]}
              {...form.getInputProps('vehicleType')}
            />
            <TextInput label="Vehicle Registration" withAsterisk {...form.getInputProps('vehicleRegistration')} />
            <TextInput label="Vehicle Height (m)" type="number" step={0.01} min={0} withAsterisk {...form.getInputProps('vehicleHeightM')} />
            <TextInput label="Vehicle Length (m)" type="number" step={0.01} min={0} {...form.getInputProps('vehicleLengthM')} />
          </SimpleGrid>
          <Textarea label="Goods Description" autosize minRows={2} {...form.getInputProps('goodsDescription')} />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
          <Stack gap={6}>
            <Checkbox label="The driver has completed the site induction" {...form.getInputProps('driverInductionCompleted', { type: 'checkbox' })} />
            <Checkbox label="The tenant accepts the terms and conditions" {...form.getInputProps('termsAccepted', { type: 'checkbox' })} />
            <Checkbox label="Approve the booking now" {...form.getInputProps('approve', { type: 'checkbox' })} />
            <Checkbox
              label="Allow less than the site's minimum advance notice (recorded in the audit log)"
              {...form.getInputProps('overrideMinAdvance', { type: 'checkbox' })}
            />
          </Stack>
          <SiteAvailability state={perSite} siteId={form.values.siteId} onChoose={(id) => form.setFieldValue('siteId', id)} />
          <BayPreview state={preview} />
          {formError ? (
            <Alert color="red" title="Not booked" role="alert">
              {formError}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create booking
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

type PreviewState =
  | { kind: 'incomplete' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; siteName: string; bayName: string; startTime: string; endTime: string; timeZone: string };

/** The bay the server's allocator would give the booking now, once site, day, time and vehicle height are filled in. */
/** What decides a bay at any site, once day, time and vehicle height are filled in. */
function siteTargetOf(values: Values | null): SiteTarget | null {
  const height = values ? Number(values.vehicleHeightM) : NaN;
  const length = values && values.vehicleLengthM !== '' ? Number(values.vehicleLengthM) : undefined;
  return values && values.date && /^\d\d:\d\d$/.test(values.slot) && values.vehicleHeightM !== '' && Number.isFinite(height)
    ? {
        date: values.date,
        slot: values.slot,
        expectedDurationMin: Number(values.expectedDurationMin),
        vehicleHeightM: height,
        vehicleLengthM: length,
        overrideMinAdvance: values.overrideMinAdvance,
      }
    : null;
}

function useBayPreview(orgId: string, values: Values | null): PreviewState {
  const at = siteTargetOf(values);
  const target = at && values?.siteId ? { siteId: values.siteId, ...at } : null;
  const query = useQuery({
    queryKey: ['org', orgId, 'booking-preview', target],
    queryFn: () => previewAdminBooking(orgId, target!),
    enabled: target !== null,
    retry: false,
    staleTime: 0,
  });
  if (!target) return { kind: 'incomplete' };
  if (query.isPending) return { kind: 'loading' };
  if (query.isError) return { kind: 'error', message: query.error instanceof ApiError ? query.error.message : 'The bay could not be worked out' };
  return { kind: 'ready', ...query.data };
}

function BayPreview({ state }: { state: PreviewState }) {
  if (state.kind === 'incomplete') {
    return (
      <Text size="sm" c="dimmed" aria-live="polite">
        Choose the site, date, time and vehicle height to see the bay this booking will get.
      </Text>
    );
  }
  if (state.kind === 'loading') {
    return (
      <Text size="sm" c="dimmed" aria-live="polite">
        Finding the bay…
      </Text>
    );
  }
  if (state.kind === 'error') {
    return (
      <Card withBorder padding="sm" aria-live="polite" data-testid="bay-preview">
        <Text size="sm" fw={600}>
          No bay for this booking
        </Text>
        <Text size="sm">{state.message}</Text>
      </Card>
    );
  }
  return (
    <Card withBorder padding="sm" aria-live="polite" data-testid="bay-preview">
      <Text size="sm" fw={600}>
        Bay for this booking
      </Text>
      <Text size="sm">
        {state.siteName}, bay {state.bayName}, {formatSiteRange(state.startTime, state.endTime, state.timeZone)}
      </Text>
    </Card>
  );
}
