import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState, type ChangeEvent } from 'react';
import { MAX_VEHICLE_HEIGHT_M, MAX_VEHICLE_LENGTH_M } from '../../../../domain/booking-request';
import { DEFAULT_DURATION_MIN, MAX_DURATION_MIN, MIN_DURATION_MIN } from '../../../../domain/constants';
import {
  BOOKING_TYPE_LABELS,
  BOOKING_TYPES,
  SPECIAL_ACCESS_LABELS,
  SPECIAL_ACCESS_NEEDS,
  VEHICLE_TYPE_LABELS,
  VEHICLE_TYPES,
  type BookingType,
} from '../../../../domain/enums';
import { walkInSchema, type GateBooking, type GateMoveResponse, type WalkInInput } from '../../../../domain/gate';
import { ApiError } from '../../../lib/api-client';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { gateKey, registerWalkIn } from '../api/gate-api';

// A vehicle at the gate without a booking (issue 10): the admin booking's fields less day and slot,
// checked with the shared walk-in schema. The server books it now on a free compatible bay and
// checks it in (source `gate`, audited), or refuses with a message shown as it is sent.

export type WalkInValues = Values;
type Values = {
  tsrNumber: string;
  tenantName: string;
  contactName: string;
  tenantEmail: string;
  tenantPhone: string;
  bookingType: BookingType;
  expectedDurationMin: number | string;
  vehicleType: string;
  vehicleRegistration: string;
  vehicleHeightM: number | string;
  vehicleLengthM: number | string;
  specialAccessNeeds: string[];
  goodsDescription: string;
  notes: string;
  driverInductionCompleted: boolean;
  termsAccepted: boolean;
};

const INITIAL: Values = {
  tsrNumber: '',
  tenantName: '',
  contactName: '',
  tenantEmail: '',
  tenantPhone: '',
  bookingType: 'delivery',
  expectedDurationMin: DEFAULT_DURATION_MIN,
  vehicleType: '',
  vehicleRegistration: '',
  vehicleHeightM: '',
  vehicleLengthM: '',
  specialAccessNeeds: [],
  goodsDescription: '',
  notes: '',
  driverInductionCompleted: false,
  termsAccepted: false,
};

/** The form's answers as the shared schema's input (blank optional fields left out). */
function toInput(v: Values): WalkInInput {
  const blank = (s: string) => (s.trim() === '' ? undefined : s);
  return {
    tsrNumber: v.tsrNumber,
    tenantName: v.tenantName,
    contactName: v.contactName,
    tenantEmail: v.tenantEmail,
    tenantPhone: blank(v.tenantPhone),
    bookingType: v.bookingType,
    expectedDurationMin: v.expectedDurationMin === '' ? undefined : v.expectedDurationMin,
    vehicleType: v.vehicleType,
    vehicleRegistration: v.vehicleRegistration,
    vehicleHeightM: v.vehicleHeightM === '' ? undefined : v.vehicleHeightM,
    vehicleLengthM: v.vehicleLengthM === '' ? undefined : v.vehicleLengthM,
    specialAccessNeeds: v.specialAccessNeeds as WalkInInput['specialAccessNeeds'],
    goodsDescription: blank(v.goodsDescription),
    notes: blank(v.notes),
    driverInductionCompleted: v.driverInductionCompleted as true,
    termsAccepted: v.termsAccepted as true,
  };
}

const validate = zodFormValidate(walkInSchema);

/** The server's refusals at the gate, titled for the guard; the message is the server's own. */
const REFUSAL_TITLES: Record<string, string> = {
  vehicle_on_site: 'Vehicle already on site',
  no_free_bay: 'No free bay for this vehicle',
  site_emergency: 'Operations are stopped',
};

/** Checkboxes with a label at least 44 px high: the whole line is the touch target. */
const touchCheckbox = { body: { alignItems: 'center' }, label: { minHeight: 44, display: 'flex', alignItems: 'center' } } as const;

type Props = {
  opened: boolean;
  siteId: string;
  orgId: string;
  onClose: () => void;
  /** Answers already known (a kiosk's walk-in request), and how to register it instead of the plain walk-in. */
  prefill?: Partial<Values>;
  register?: (input: WalkInInput) => Promise<GateMoveResponse>;
};

export function WalkInDialog({ opened, siteId, orgId, onClose, prefill, register: registerWith }: Props) {
  const isNarrow = useMediaQuery('(max-width: 48em)');
  const queryClient = useQueryClient();
  const [registered, setRegistered] = useState<GateBooking | null>(null);
  const [refusal, setRefusal] = useState<{ title: string; message: string } | null>(null);
  const form = useForm<Values>({ mode: 'controlled', initialValues: { ...INITIAL, ...prefill }, validate: (values) => validate(toInput(values)) });

  const register = useMutation({
    mutationFn: (input: WalkInInput) => (registerWith ? registerWith(input) : registerWalkIn(siteId, input)),
    onMutate: () => setRefusal(null),
    onSuccess: (result) => {
      setRegistered(result.booking);
      form.reset();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'validation_error' && applyApiFieldErrors(error, form.setFieldError)) return;
      const code = error instanceof ApiError ? error.code : '';
      setRefusal({
        title: REFUSAL_TITLES[code] ?? 'Walk-in not registered',
        message: error instanceof Error ? error.message : 'The walk-in could not be registered.',
      });
    },
    // The queue shows the new vehicle (the live event does it too; this is for a lost socket).
    onSettled: () => queryClient.invalidateQueries({ queryKey: gateKey(orgId, siteId) }),
  });

  const close = () => {
    if (register.isPending) return;
    setRegistered(null);
    setRefusal(null);
    form.reset();
    onClose();
  };
  const again = () => {
    setRegistered(null);
    setRefusal(null);
  };
  const onRegistrationChange = (event: ChangeEvent<HTMLInputElement>) => form.setFieldValue('vehicleRegistration', event.currentTarget.value.toUpperCase());

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Register walk-in"
      size="xl"
      fullScreen={isNarrow}
      closeButtonProps={{ 'aria-label': 'Close dialog', size: 'xl' }}
    >
      {registered ? (
        <Stack gap="md" data-testid="walk-in-registered" role="status">
          <Group gap="sm" wrap="nowrap">
            <IconCircleCheck size={36} color="var(--mantine-color-green-8)" aria-hidden />
            <Title order={3}>Walk-in registered and checked in</Title>
          </Group>
          <Paper withBorder radius="md" p="md">
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
              <Stack gap={0}>
                <Text size="sm" c="dimmed">
                  TSR Number
                </Text>
                <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }} data-testid="walk-in-tsr">
                  {registered.tsrNumber}
                </Text>
              </Stack>
              <Stack gap={0}>
                <Text size="sm" c="dimmed">
                  Vehicle
                </Text>
                <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
                  {registered.vehicleRegistration}
                </Text>
              </Stack>
              <Stack gap={0}>
                <Text size="sm" c="dimmed">
                  Bay
                </Text>
                <Text fw={800} fz={32} lh={1.2} data-testid="walk-in-bay">
                  {registered.bayName}
                </Text>
              </Stack>
            </SimpleGrid>
          </Paper>
          <Text size="sm">The vehicle is in the gate queue. Call it to bay {registered.bayName} when it can go.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" size="lg" onClick={again}>
              Register another
            </Button>
            <Button size="lg" onClick={close} data-autofocus>
              Done
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={form.onSubmit(
            (values) => register.mutate(toInput(values)),
            () => {
              // Take the guard to the first field to fix.
              requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-walk-in-form] [aria-invalid="true"]')?.focus());
            },
          )}
          data-walk-in-form
        >
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              A vehicle without a booking. It is booked from now on the best-fitting free bay that can take it and checked in; opening hours do not
              apply at the gate.
            </Text>
            <Title order={3} size="h4">
              Vehicle
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput size="lg" label="Vehicle Registration" withAsterisk autoComplete="off" autoCapitalize="characters" data-autofocus {...form.getInputProps('vehicleRegistration')} onChange={onRegistrationChange} />
              <NativeSelect
                size="lg"
                label="Vehicle Type"
                withAsterisk
                data={[{ value: '', label: 'Select vehicle type' }, ...VEHICLE_TYPES.map((t) => ({ value: t, label: VEHICLE_TYPE_LABELS[t] }))]}
                {...form.getInputProps('vehicleType')}
              />
              <TextInput size="lg" label="Vehicle Height (m)" withAsterisk type="number" inputMode="decimal" min={0} max={MAX_VEHICLE_HEIGHT_M} step={0.01} {...form.getInputProps('vehicleHeightM')} />
              <TextInput size="lg" label="Vehicle Length (m)" type="number" inputMode="decimal" min={0} max={MAX_VEHICLE_LENGTH_M} step={0.01} {...form.getInputProps('vehicleLengthM')} />
            </SimpleGrid>
            <Checkbox.Group size="lg" label="Special Access Needs" {...form.getInputProps('specialAccessNeeds')}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={0} mt={4}>
                {SPECIAL_ACCESS_NEEDS.map((need) => (
                  <Checkbox key={need} size="lg" value={need} label={SPECIAL_ACCESS_LABELS[need]} styles={touchCheckbox} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            <Title order={3} size="h4" mt="xs">
              Company and booking
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput size="lg" label="TSR Number" withAsterisk {...form.getInputProps('tsrNumber')} />
              <TextInput size="lg" label="Company Name" withAsterisk {...form.getInputProps('tenantName')} />
              <TextInput size="lg" label="Contact Name" withAsterisk {...form.getInputProps('contactName')} />
              <TextInput size="lg" label="Email" type="email" withAsterisk {...form.getInputProps('tenantEmail')} />
              <TextInput size="lg" label="Phone" type="tel" {...form.getInputProps('tenantPhone')} />
              <NativeSelect
                size="lg"
                label="Booking Type"
                data={BOOKING_TYPES.map((t) => ({ value: t, label: BOOKING_TYPE_LABELS[t] }))}
                {...form.getInputProps('bookingType')}
              />
              <TextInput
                size="lg"
                label="Expected Duration (minutes)"
                type="number"
                inputMode="numeric"
                min={MIN_DURATION_MIN}
                max={MAX_DURATION_MIN}
                step={15}
                {...form.getInputProps('expectedDurationMin')}
              />
            </SimpleGrid>
            <Textarea size="lg" label="Goods Description" autosize minRows={2} {...form.getInputProps('goodsDescription')} />
            <Textarea size="lg" label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
            <Title order={3} size="h4" mt="xs">
              Compliance
            </Title>
            <Stack gap={0}>
              <Checkbox size="lg" label="The driver has completed the site induction" styles={touchCheckbox} {...form.getInputProps('driverInductionCompleted', { type: 'checkbox' })} />
              <Checkbox size="lg" label="The tenant accepts the terms and conditions" styles={touchCheckbox} {...form.getInputProps('termsAccepted', { type: 'checkbox' })} />
            </Stack>
            {refusal ? (
              <Alert color="red" title={refusal.title} role="alert" data-testid="walk-in-refusal">
                {refusal.message}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" size="lg" onClick={close} disabled={register.isPending}>
                Cancel
              </Button>
              <Button type="submit" size="lg" loading={register.isPending}>
                Register walk-in
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
