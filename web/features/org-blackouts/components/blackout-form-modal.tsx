import { Alert, Button, Chip, Group, Modal, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { AffectedBooking, AffectedResolution } from '../../../../domain/affected-bookings';
import { WEEKDAYS, type Weekday } from '../../../../domain/enums';
import {
  BLACKOUT_FREQUENCIES,
  BLACKOUT_FREQUENCY_LABELS,
  MAX_INTERVAL,
  MAX_SERIES_DURATION_MIN,
  WEEKDAY_NAMES,
  addDays,
  blackoutFormSchema,
  buildRrule,
  describeRecurrence,
  expandSeries,
  formatDuration,
  seriesFormSchema,
  type BlackoutFrequency,
  type BlackoutItem,
  type BlackoutOptions,
  type BlackoutSeries,
  type BlackoutWriteResult,
  type CreateBlackoutInput,
  type CreateSeriesInput,
  type SeriesWriteResult,
} from '../../../../domain/org-blackouts';
import { isCalendarDate, isTimeOfDay } from '../../../../domain/booking-request';
import { AffectedBookingsDialog, affectedBookingsOf } from '../../../components/bookings/affected-bookings-dialog';
import { DateField } from '../../../components/ui/date-field';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useCreateBlackout, useCreateSeries, useUpdateBlackout, useUpdateSeries } from '../api/blackouts-api';
import { describeOutcomes, formatDay } from '../utils/blackout-display';

// Create or change a blackout: a one-off (a local start and end at the site) or a recurring one
// (daily, weekly on chosen days or monthly, at a local time for a duration, optionally until a
// day), with its plain-language summary and next dates. Over live bookings the server asks first
// (409 affected_bookings): the dialog lists them and the choice is sent with the same change.

type Mode = 'one-off' | 'recurring';
export type BlackoutEditTarget = { type: 'one-off'; item: BlackoutItem } | { type: 'series'; series: BlackoutSeries } | null;

type Values = {
  mode: Mode;
  siteId: string | null;
  /** '' : the whole site. */
  bayId: string;
  startDate: string | null;
  startTime: string;
  endDate: string | null;
  endTime: string;
  frequency: BlackoutFrequency;
  interval: number | string;
  weekdays: Weekday[];
  startsOn: string | null;
  startLocal: string;
  durationMin: number | string;
  until: string | null;
  reason: string;
};

const SHORT_DAY: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
const UNIT: Record<BlackoutFrequency, [string, string]> = { daily: ['day', 'days'], weekly: ['week', 'weeks'], monthly: ['month', 'months'] };

function initialValues(target: BlackoutEditTarget, defaultSiteId: string | null, today: string | null): Values {
  const base: Values = {
    mode: 'one-off',
    siteId: defaultSiteId,
    bayId: '',
    startDate: today ? addDays(today, 1) : null,
    startTime: '06:00',
    endDate: today ? addDays(today, 1) : null,
    endTime: '12:00',
    frequency: 'weekly',
    interval: 1,
    weekdays: [],
    startsOn: today ? addDays(today, 1) : null,
    startLocal: '06:00',
    durationMin: 120,
    until: null,
    reason: '',
  };
  if (target?.type === 'one-off') {
    const b = target.item;
    return { ...base, siteId: b.siteId, bayId: b.bayId ?? '', startDate: b.startDate, startTime: b.startLocal, endDate: b.endDate, endTime: b.endLocal, reason: b.reason ?? '' };
  }
  if (target?.type === 'series') {
    const s = target.series;
    return {
      ...base,
      mode: 'recurring',
      siteId: s.siteId,
      bayId: s.bayId ?? '',
      frequency: s.frequency,
      interval: s.interval,
      weekdays: s.weekdays,
      startsOn: s.startsOn,
      startLocal: s.startLocal,
      durationMin: s.durationMin,
      until: s.until,
      reason: s.reason ?? '',
    };
  }
  return base;
}

const num = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v));

function toOneOff(v: Values): CreateBlackoutInput {
  return { siteId: v.siteId ?? '', bayId: v.bayId || null, startDate: v.startDate ?? '', startTime: v.startTime, endDate: v.endDate ?? '', endTime: v.endTime, reason: v.reason.trim() || null };
}

function toSeries(v: Values): CreateSeriesInput {
  return {
    siteId: v.siteId ?? '',
    bayId: v.bayId || null,
    frequency: v.frequency,
    interval: num(v.interval),
    weekdays: v.frequency === 'weekly' ? v.weekdays : [],
    startsOn: v.startsOn ?? '',
    startLocal: v.startLocal,
    durationMin: num(v.durationMin),
    until: v.until || null,
    reason: v.reason.trim() || null,
  };
}

const validateOneOff = zodFormValidate(blackoutFormSchema);
const validateSeries = zodFormValidate(seriesFormSchema);

/** 'Every Tuesday 06:00–08:00, from Tue 24 Nov 2026 until …' and the next few dates, or null while the form is incomplete. */
function recurrencePreview(v: Values, timeZone: string | undefined, today: string | undefined): { summary: string; next: string[] } | null {
  const interval = num(v.interval);
  const durationMin = num(v.durationMin);
  if (!v.startsOn || !isCalendarDate(v.startsOn) || !isTimeOfDay(v.startLocal)) return null;
  if (!(interval >= 1 && interval <= MAX_INTERVAL) || !(durationMin >= 1 && durationMin <= MAX_SERIES_DURATION_MIN) || !Number.isInteger(durationMin)) return null;
  if (v.frequency === 'weekly' && v.weekdays.length === 0) return null;
  const recurrence = { frequency: v.frequency, interval, weekdays: v.frequency === 'weekly' ? v.weekdays : [] };
  const range = `from ${formatDay(v.startsOn)}${v.until && isCalendarDate(v.until) ? ` until ${formatDay(v.until)}` : ''}`;
  const summary = `${describeRecurrence(recurrence, { startsOn: v.startsOn, startLocal: v.startLocal, durationMin })}, ${range}`;
  let next: string[] = [];
  if (timeZone) {
    try {
      const from = today && today > v.startsOn ? today : v.startsOn;
      const until = v.until && isCalendarDate(v.until) ? v.until : null;
      next = expandSeries(
        { rrule: buildRrule(recurrence), startsOn: v.startsOn, startLocal: v.startLocal, durationMin, until },
        { timeZone, from, to: addDays(from, 400), max: 4 },
      ).occurrences.map((o) => formatDay(o.date));
    } catch {
      next = [];
    }
  }
  return { summary, next };
}

type Props = {
  orgId: string;
  opened: boolean;
  /** null: a new blackout. */
  target: BlackoutEditTarget;
  options: BlackoutOptions | undefined;
  defaultSiteId: string | null;
  onClose: () => void;
};

/** Mounted afresh for each target (the page keys it), so the form starts from that blackout. */
export function BlackoutFormModal({ orgId, opened, target, options, defaultSiteId, onClose }: Props) {
  const sites = options?.sites ?? [];
  const defaultSite = sites.find((s) => s.id === defaultSiteId) ?? sites[0] ?? null;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initialValues(target, defaultSite?.id ?? null, defaultSite?.today ?? null),
    validate: (values) => (values.mode === 'one-off' ? validateOneOff(toOneOff(values)) : validateSeries(toSeries(values))),
  });
  const [pending, setPending] = useState<{ affected: AffectedBooking[]; send: (resolution: AffectedResolution) => Promise<unknown> } | null>(null);
  const createOne = useCreateBlackout(orgId);
  const updateOne = useUpdateBlackout(orgId);
  const createSeries = useCreateSeries(orgId);
  const updateSeries = useUpdateSeries(orgId);
  const isBusy = createOne.isPending || updateOne.isPending || createSeries.isPending || updateSeries.isPending;

  const v = form.values;
  const site = sites.find((s) => s.id === v.siteId);
  const bayData = [{ value: '', label: 'Whole site (every bay)' }, ...(site?.bays ?? []).map((b) => ({ value: b.id, label: b.active ? b.name : `${b.name} (inactive)` }))];
  const isEditing = target !== null;
  const preview = v.mode === 'recurring' ? recurrencePreview(v, site?.timeZone, site?.today) : null;
  const bayLabel = v.bayId ? `bay ${site?.bays.find((b) => b.id === v.bayId)?.name ?? ''}` : `the whole of ${site?.name ?? 'the site'}`;

  const finished = (result: BlackoutWriteResult | SeriesWriteResult) => {
    const outcomes = describeOutcomes(result.outcomes);
    const what = 'series' in result ? `${result.series.summary} (${result.occurrences} upcoming)` : `${result.blackout.bayName ?? 'Whole site'}, ${result.blackout.siteName}`;
    toast.success(isEditing ? 'Blackout updated' : 'Blackout created', outcomes ? `${what}. ${outcomes}.` : `${what}.`);
    setPending(null);
    onClose();
  };

  const send = (values: Values) => (resolution?: AffectedResolution): Promise<BlackoutWriteResult | SeriesWriteResult> => {
    if (values.mode === 'one-off') {
      const input = { ...toOneOff(values), resolution };
      if (target?.type === 'one-off') {
        const { siteId: _siteId, ...changes } = input;
        return updateOne.mutateAsync({ id: target.item.id, input: changes });
      }
      return createOne.mutateAsync(input);
    }
    const input = { ...toSeries(values), resolution };
    if (target?.type === 'series') {
      const { siteId: _siteId, ...changes } = input;
      return updateSeries.mutateAsync({ id: target.series.id, input: changes });
    }
    return createSeries.mutateAsync(input);
  };

  const submit = async (values: Values) => {
    const write = send(values);
    try {
      finished(await write());
    } catch (error) {
      const affected = affectedBookingsOf(error);
      if (affected) {
        setPending({ affected, send: async (resolution) => finished(await write(resolution)) });
        return;
      }
      if (!applyApiFieldErrors(error, form.setFieldError)) {
        form.setErrors({ form: error instanceof ApiError ? error.message : 'The blackout could not be saved. Try again.' });
      }
    }
  };

  const title = target?.type === 'series' ? 'Edit recurring blackout' : target?.type === 'one-off' ? (target.item.series ? 'Edit this occurrence' : 'Edit blackout') : 'New blackout';

  return (
    <>
      <Modal opened={opened && !pending} onClose={onClose} title={title} size="lg">
        <form noValidate onSubmit={form.onSubmit((values) => void submit(values))}>
          <Stack gap="md">
            {!isEditing ? (
              <SegmentedControl
                aria-label="Blackout type"
                data={[
                  { value: 'one-off', label: 'One-off' },
                  { value: 'recurring', label: 'Recurring' },
                ]}
                {...form.getInputProps('mode')}
              />
            ) : null}
            {target?.type === 'one-off' && target.item.series ? (
              <Alert color="blue" variant="light">
                Changing this occurrence takes it out of its series ({target.item.series.summary}); the other dates stay as they are.
              </Alert>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Site"
                withAsterisk
                data={sites.map((s) => ({ value: s.id, label: s.name }))}
                disabled={isEditing}
                allowDeselect={false}
                {...form.getInputProps('siteId')}
                onChange={(value) => {
                  form.setFieldValue('siteId', value);
                  form.setFieldValue('bayId', '');
                  const next = sites.find((s) => s.id === value);
                  if (next && !isEditing) {
                    for (const field of ['startDate', 'endDate', 'startsOn'] as const) form.setFieldValue(field, addDays(next.today, 1));
                  }
                }}
              />
              <Select label="Bay" data={bayData} allowDeselect={false} {...form.getInputProps('bayId')} onChange={(value) => form.setFieldValue('bayId', value ?? '')} />
            </SimpleGrid>
            {site ? (
              <Text size="xs" c="dimmed" mt={-8}>
                Times are local to {site.name} ({site.timeZone}).
              </Text>
            ) : null}

            {v.mode === 'one-off' ? (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <DateField label="Start date" withAsterisk value={v.startDate} minDate={isEditing ? undefined : site?.today} onChange={(d) => form.setFieldValue('startDate', d)} error={form.errors.startDate} />
                <TextInput label="Start time" type="time" withAsterisk {...form.getInputProps('startTime')} />
                <DateField label="End date" withAsterisk value={v.endDate} minDate={v.startDate ?? undefined} onChange={(d) => form.setFieldValue('endDate', d)} error={form.errors.endDate} />
                <TextInput label="End time" type="time" withAsterisk {...form.getInputProps('endTime')} />
              </SimpleGrid>
            ) : (
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Select
                    label="Repeats"
                    withAsterisk
                    data={BLACKOUT_FREQUENCIES.map((f) => ({ value: f, label: BLACKOUT_FREQUENCY_LABELS[f] }))}
                    allowDeselect={false}
                    {...form.getInputProps('frequency')}
                  />
                  <NumberInput
                    label={`Every (${UNIT[v.frequency][1]})`}
                    min={1}
                    max={MAX_INTERVAL}
                    allowDecimal={false}
                    {...form.getInputProps('interval')}
                    description={num(v.interval) === 1 ? `Every ${UNIT[v.frequency][0]}` : `Every ${v.interval} ${UNIT[v.frequency][1]}`}
                  />
                </SimpleGrid>
                {v.frequency === 'weekly' ? (
                  <div role="group" aria-labelledby="blackout-weekdays-label">
                    <Text id="blackout-weekdays-label" size="sm" fw={500} mb={6}>
                      On{' '}
                      <Text span c="red" aria-hidden>
                        *
                      </Text>
                    </Text>
                    <Chip.Group multiple value={v.weekdays} onChange={(days) => form.setFieldValue('weekdays', WEEKDAYS.filter((d) => days.includes(d)))}>
                      <Group gap={6}>
                        {WEEKDAYS.map((d) => (
                          <Chip key={d} value={d} size="sm" aria-label={WEEKDAY_NAMES[d]}>
                            {SHORT_DAY[d]}
                          </Chip>
                        ))}
                      </Group>
                    </Chip.Group>
                    {form.errors.weekdays ? (
                      <Text size="xs" c="red" mt={4} role="alert">
                        {form.errors.weekdays}
                      </Text>
                    ) : null}
                  </div>
                ) : null}
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <DateField label="Starts on" withAsterisk value={v.startsOn} minDate={isEditing ? undefined : site?.today} onChange={(d) => form.setFieldValue('startsOn', d)} error={form.errors.startsOn} />
                  <TextInput label="Start time" type="time" withAsterisk {...form.getInputProps('startLocal')} />
                  <NumberInput
                    label="Duration (minutes)"
                    withAsterisk
                    min={1}
                    max={MAX_SERIES_DURATION_MIN}
                    step={15}
                    allowDecimal={false}
                    {...form.getInputProps('durationMin')}
                    description={num(v.durationMin) >= 1 ? formatDuration(num(v.durationMin)) : undefined}
                  />
                </SimpleGrid>
                <DateField
                  label="Until (optional)"
                  description="The last day it may start on; leave empty to repeat with no end."
                  value={v.until}
                  minDate={v.startsOn ?? undefined}
                  onChange={(d) => form.setFieldValue('until', d)}
                  error={form.errors.until}
                  maw={280}
                />
                {preview ? (
                  <Alert color="indigo" variant="light" title={preview.summary} data-testid="recurrence-summary">
                    {preview.next.length > 0 ? `Next: ${preview.next.join(', ')}` : 'No date falls in this range.'}
                    {target?.type === 'series' ? (
                      <Text size="xs" mt={4}>
                        Saving rewrites the occurrences from now on; those already started stay as they were.
                      </Text>
                    ) : null}
                  </Alert>
                ) : null}
              </Stack>
            )}
            <Textarea label="Reason" placeholder="e.g. Dock leveller maintenance" autosize minRows={2} maxLength={500} {...form.getInputProps('reason')} />
            {v.mode === 'one-off' && site && v.startDate && v.endDate ? (
              <Text size="sm" c="dimmed">
                Closes {bayLabel} from {formatDay(v.startDate)} {v.startTime} to {v.endDate === v.startDate ? '' : `${formatDay(v.endDate)} `}
                {v.endTime}.
              </Text>
            ) : null}
            {form.errors.form ? (
              <Alert color="red" title="Not saved" role="alert">
                {form.errors.form}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={isBusy}>
                {isEditing ? 'Save changes' : 'Create blackout'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <AffectedBookingsDialog
        opened={pending !== null}
        title="Bookings in the way"
        description={`These upcoming bookings fall inside the blackout on ${bayLabel}. Keep them, move them to another free bay that fits at the same time, or cancel them (the hauliers are e-mailed the reason).`}
        affected={pending?.affected ?? []}
        timeZone={site?.timeZone}
        onResolve={(resolution) => pending!.send(resolution)}
        onClose={() => setPending(null)}
      />
    </>
  );
}
