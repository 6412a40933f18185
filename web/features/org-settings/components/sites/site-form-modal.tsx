import { Alert, Button, Divider, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { DEFAULT_OPERATING_HOURS, MIN_ADVANCE_MIN, SLOT_INTERVAL_MIN, type OperatingHours } from '../../../../../domain/constants';
import { WEEKDAYS } from '../../../../../domain/enums';
import {
  BOOKING_HORIZON_LIMITS,
  createSiteSchema,
  DEFAULT_BOOKING_HORIZON_DAYS,
  MIN_ADVANCE_LIMITS,
  SLOT_INTERVAL_LIMITS,
  type CreateSiteInput,
  type OrgSite,
  type UpdateSiteResult,
} from '../../../../../domain/org-sites';
import { dayWindows } from '../../../../../domain/slot-grid';
import { ApiError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useCreateSite, useUpdateSite } from '../../api/sites-api';
import { HoursEditor } from './hours-editor';
import { TimeZoneSelect } from './time-zone-select';

// Add or edit a site: details, the week's opening windows, the time zone and the slot rules. The
// shared schema validates here and on the server, with the same messages.

type Values = {
  name: string;
  address: string;
  timeZone: string | null;
  /** As the time inputs show it: midnight closing is '00:00' here, '24:00' in the API. */
  operatingHours: OperatingHours;
  slotIntervalMin: number | string;
  minAdvanceMin: number | string;
  bookingHorizonDays: number | string;
  contactPhone: string;
  contactEmail: string;
};

function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? null;
  } catch {
    return null;
  }
}

const mapHours = (hours: OperatingHours, from: string, to: string): OperatingHours =>
  Object.fromEntries(WEEKDAYS.map((day) => [day, dayWindows(hours[day]).map((w) => ({ open: w.open, close: w.close === from ? to : w.close }))])) as OperatingHours;

function initialValues(site: OrgSite | null, defaultTimeZone: string | null): Values {
  if (!site) {
    return {
      name: '',
      address: '',
      // The organization's zone (its sites'); the browser's only for a first site.
      timeZone: defaultTimeZone ?? browserTimeZone(),
      operatingHours: structuredClone(DEFAULT_OPERATING_HOURS),
      slotIntervalMin: SLOT_INTERVAL_MIN,
      minAdvanceMin: MIN_ADVANCE_MIN,
      bookingHorizonDays: DEFAULT_BOOKING_HORIZON_DAYS,
      contactPhone: '',
      contactEmail: '',
    };
  }
  return {
    name: site.name,
    address: site.address ?? '',
    timeZone: site.timeZone,
    operatingHours: mapHours(site.operatingHours, '24:00', '00:00'),
    slotIntervalMin: site.slotIntervalMin,
    minAdvanceMin: site.minAdvanceMin,
    bookingHorizonDays: site.bookingHorizonDays,
    contactPhone: site.contactPhone ?? '',
    contactEmail: site.contactEmail ?? '',
  };
}

const numberOrUndefined = (value: number | string) => (value === '' || value === null ? undefined : Number(value));

/** The form's answers as the shared schema's input. */
function toInput(v: Values): CreateSiteInput {
  return {
    name: v.name,
    address: v.address,
    timeZone: v.timeZone ?? '',
    operatingHours: mapHours(v.operatingHours, '00:00', '24:00'),
    slotIntervalMin: numberOrUndefined(v.slotIntervalMin) as number,
    minAdvanceMin: numberOrUndefined(v.minAdvanceMin) as number,
    bookingHorizonDays: numberOrUndefined(v.bookingHorizonDays) as number,
    contactPhone: v.contactPhone,
    contactEmail: v.contactEmail,
  };
}

const validate = zodFormValidate(createSiteSchema);

export type SiteFormModalProps = {
  orgId: string;
  opened: boolean;
  /** null: a new site. */
  site: OrgSite | null;
  /** A new site's time zone: the organization's (organizationTimeZone of its sites); null: the browser's. */
  defaultTimeZone?: string | null;
  onClose: () => void;
  /** After an edit: the answer, with the bookings the new hours leave outside. */
  onUpdated: (site: OrgSite, result: UpdateSiteResult) => void;
};

export function SiteFormModal({ orgId, opened, site, defaultTimeZone = null, onClose, onUpdated }: SiteFormModalProps) {
  const form = useForm<Values>({ mode: 'controlled', initialValues: initialValues(site, defaultTimeZone), validate: (values) => validate(toInput(values)) });
  const create = useCreateSite(orgId);
  const update = useUpdateSite(orgId);

  useEffect(() => {
    if (opened) {
      form.setValues(initialValues(site, defaultTimeZone));
      form.resetDirty(initialValues(site, defaultTimeZone));
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset when the modal opens for a site
  }, [opened, site?.id]);

  // The organization's zone may arrive after the form opened (its sites still loading): a new site
  // takes it as long as nobody has chosen a zone.
  useEffect(() => {
    if (opened && !site && defaultTimeZone && !form.isDirty('timeZone') && form.getValues().timeZone !== defaultTimeZone) {
      form.setFieldValue('timeZone', defaultTimeZone);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the default only
  }, [opened, site?.id, defaultTimeZone]);

  const onError = (error: unknown) => {
    if (!applyApiFieldErrors(error, form.setFieldError)) {
      form.setErrors({ form: error instanceof ApiError ? error.message : 'The site could not be saved. Try again.' });
    }
  };

  const submit = (values: Values) => {
    const input = toInput(values);
    if (site) {
      update.mutate(
        { siteId: site.id, input },
        {
          onSuccess: (result) => {
            toast.success('Site saved', `${result.site.name} is up to date.`);
            onUpdated(site, result);
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate(input, {
        onSuccess: (created) => {
          toast.success('Site added', `${created.name} can now take bookings once it has bays.`);
          onClose();
        },
        onError,
      });
    }
  };

  const formError = form.errors.form;
  const isSaving = create.isPending || update.isPending;

  return (
    <Modal opened={opened} onClose={onClose} title={site ? `Edit ${site.name}` : 'Add a site'} size="xl">
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Site name" withAsterisk maxLength={100} {...form.getInputProps('name')} />
            <TimeZoneSelect
              label="Time zone"
              description="Opening hours and bookings are in this zone"
              withAsterisk
              {...form.getInputProps('timeZone')}
            />
          </SimpleGrid>
          <Textarea label="Address" autosize minRows={2} maxLength={300} {...form.getInputProps('address')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Contact phone" type="tel" maxLength={40} {...form.getInputProps('contactPhone')} />
            <TextInput label="Contact e-mail" type="email" maxLength={254} {...form.getInputProps('contactEmail')} />
          </SimpleGrid>

          <Divider />
          <div>
            <Title order={3} size="h5">
              Opening hours
            </Title>
            <Text size="sm" c="dimmed">
              Add a second window for a break (for example 06:00 to 12:00 and 13:00 to 22:00). A window closing at midnight (00:00, or 12:00 AM) runs to the end of the day. Changing hours never moves a booking: any left outside are listed after you save.
            </Text>
          </div>
          <HoursEditor
            value={form.values.operatingHours}
            errors={form.errors}
            onChange={(day, windows) => {
              form.setFieldValue(`operatingHours.${day}`, windows);
              for (const key of Object.keys(form.errors)) if (key.startsWith(`operatingHours.${day}`)) form.clearFieldError(key);
            }}
          />

          <Divider />
          <Title order={3} size="h5">
            Booking rules
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label="Slot interval (minutes)"
              description="Time between bookable start times"
              min={SLOT_INTERVAL_LIMITS.min}
              max={SLOT_INTERVAL_LIMITS.max}
              step={5}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('slotIntervalMin')}
            />
            <NumberInput
              label="Minimum advance (minutes)"
              description="How long before a slot it can still be booked"
              min={MIN_ADVANCE_LIMITS.min}
              max={MIN_ADVANCE_LIMITS.max}
              step={30}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('minAdvanceMin')}
            />
            <NumberInput
              label="Booking horizon (days)"
              description="How far ahead the portal offers slots"
              min={BOOKING_HORIZON_LIMITS.min}
              max={BOOKING_HORIZON_LIMITS.max}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('bookingHorizonDays')}
            />
          </SimpleGrid>

          {formError ? (
            <Alert color="red" title="Not saved" role="alert" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
              {String(formError)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={isSaving}>
              {site ? 'Save site' : 'Add site'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
