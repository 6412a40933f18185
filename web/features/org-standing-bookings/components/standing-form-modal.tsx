import { Alert, Button, Chip, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { VEHICLE_TYPES, VEHICLE_TYPE_LABELS } from '../../../../domain/enums';
import { LANGUAGES, LANGUAGE_NAMES } from '../../../../domain/languages';
import { ISO_WEEKDAYS, ISO_WEEKDAY_SHORT, standingBookingInputSchema, type StandingBooking, type StandingBookingInput } from '../../../../domain/standing-bookings';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useCreateStanding, useUpdateStanding } from '../api/standing-bookings-api';

// Creates or edits a standing booking: site, weekdays (chips), time, duration, dates, weeks ahead,
// the tenant's reference and contact, the vehicle. The shared schema checks it before it is sent.

type Props = { orgId: string; opened: boolean; onClose: () => void; sites: { id: string; name: string }[]; editing: StandingBooking | null };

type FormValues = Record<keyof StandingBookingInput, unknown> & { weekdays: number[] };

function initial(editing: StandingBooking | null, siteId: string | undefined): Partial<FormValues> {
  if (!editing) return { siteId, weekdays: [], startLocal: '07:00', durationMin: 60, startsOn: '', endsOn: '', weeksAhead: 4, vehicleType: 'rigid', language: 'en', bookingType: 'delivery' };
  return { ...editing, endsOn: editing.endsOn ?? '', tenantPhone: editing.tenantPhone ?? '', vehicleLengthM: editing.vehicleLengthM ?? '', goodsDescription: editing.goodsDescription ?? '', notes: editing.notes ?? '' };
}

export function StandingFormModal({ orgId, opened, onClose, sites, editing }: Props) {
  const [values, setValues] = useState<Partial<FormValues>>(() => initial(editing, sites[0]?.id));
  const [messages, setMessages] = useState<string[]>([]);
  const create = useCreateStanding(orgId);
  const update = useUpdateStanding(orgId);
  const pending = create.isPending || update.isPending;
  const set = (key: keyof FormValues) => (value: unknown) => setValues((v) => ({ ...v, [key]: value }));
  const text = (key: keyof FormValues) => ({
    value: String(values[key] ?? ''),
    onChange: (e: { currentTarget: { value: string } }) => set(key)(e.currentTarget.value),
  });

  const submit = async () => {
    const { tenantId: _t, ...rest } = values;
    const input = { ...rest, tenantId: editing?.tenantId ?? null } as StandingBookingInput;
    const parsed = standingBookingInputSchema.safeParse(input);
    if (!parsed.success) {
      setMessages([...new Set(parsed.error.issues.map((i) => i.message))]);
      return;
    }
    setMessages([]);
    try {
      if (editing) await update.mutateAsync({ id: editing.id, input });
      else await create.mutateAsync(input);
      toast.success(editing ? 'Standing booking saved' : 'Standing booking created', editing ? 'Upcoming dates follow the new schedule.' : 'Its dates are booked up to its weeks ahead.');
      onClose();
    } catch (error) {
      setMessages([errorMessage(error, 'Could not save the standing booking.')]);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? 'Edit standing booking' : 'New standing booking'} size="lg">
      <Stack gap="sm">
        {messages.length > 0 && (
          <Alert color="red" title="Check the form" role="alert">
            {messages.map((m) => (
              <Text key={m} size="sm">
                {m}
              </Text>
            ))}
          </Alert>
        )}
        <Select label="Site" required data={sites.map((s) => ({ value: s.id, label: s.name }))} value={(values.siteId as string) ?? null} onChange={set('siteId')} />
        <div>
          <Text size="sm" fw={500} mb={4} id="standing-weekdays">
            Weekdays
          </Text>
          <Chip.Group multiple value={(values.weekdays ?? []).map(String)} onChange={(days) => set('weekdays')(days.map(Number).sort((a, b) => a - b))}>
            <Group gap="xs" role="group" aria-labelledby="standing-weekdays">
              {ISO_WEEKDAYS.map((d) => (
                <Chip key={d} value={String(d)} size="sm">
                  {ISO_WEEKDAY_SHORT[d]}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Start time" type="time" required {...text('startLocal')} />
          <NumberInput label="Duration (min)" required min={15} max={480} step={15} value={values.durationMin as number} onChange={set('durationMin')} />
          <NumberInput label="Weeks ahead" min={1} max={26} value={values.weeksAhead as number} onChange={set('weeksAhead')} description="How far ahead dates are booked" />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="From" type="date" required {...text('startsOn')} />
          <TextInput label="Until" type="date" description="Empty: open-ended" {...text('endsOn')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="TSR Number" required {...text('tsrNumber')} />
          <TextInput label="Company Name" required {...text('tenantName')} />
          <TextInput label="Contact Name" required {...text('contactName')} />
          <TextInput label="Email" type="email" required {...text('tenantEmail')} />
          <TextInput label="Phone" {...text('tenantPhone')} />
          <Select
            label="E-mail language"
            data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
            value={(values.language as string) ?? 'en'}
            onChange={set('language')}
            allowDeselect={false}
          />
          <Select label="Vehicle Type" required data={VEHICLE_TYPES.map((v) => ({ value: v, label: VEHICLE_TYPE_LABELS[v] }))} value={(values.vehicleType as string) ?? null} onChange={set('vehicleType')} />
          <TextInput label="Vehicle Registration" required {...text('vehicleRegistration')} />
          <NumberInput label="Vehicle Height (m)" required min={0} max={10} step={0.1} decimalScale={2} value={values.vehicleHeightM as number} onChange={set('vehicleHeightM')} />
          <NumberInput label="Vehicle Length (m)" min={0} step={0.5} decimalScale={2} value={values.vehicleLengthM as number} onChange={set('vehicleLengthM')} />
        </SimpleGrid>
        <Textarea label="Notes" autosize minRows={2} {...text('notes')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={pending}>
            {editing ? 'Save' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
