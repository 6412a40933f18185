import { ActionIcon, Alert, Button, Drawer, Group, Loader, Modal, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { AffectedBooking, AffectedResolution } from '../../../../../domain/affected-bookings';
import { formatDay } from '../../../../../domain/day-notice';
import { holidayInputSchema, type Holiday, type HolidayInput, type OrgSite } from '../../../../../domain/org-sites';
import { todayIn } from '../../../../../domain/slot-grid';
import { AffectedBookingsDialog, affectedBookingsOf } from '../../../../components/bookings/affected-bookings-dialog';
import { DateField } from '../../../../components/ui/date-field';
import { ApiError, errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useCreateHoliday, useDeleteHoliday, useSiteHolidays } from '../../api/sites-api';

// A site's holiday closures: whole local days on which the site takes no bookings. Adding one over
// live bookings asks first whether to keep them or cancel them.

type Values = { name: string; fromDate: string | null; toDate: string | null };

const toInput = (v: Values): HolidayInput => ({ name: v.name, fromDate: v.fromDate ?? '', toDate: v.toDate ?? '' });
const validate = zodFormValidate(holidayInputSchema);

export function holidaySpan(h: Pick<Holiday, 'fromDate' | 'toDate'>): string {
  return h.fromDate === h.toDate ? formatDay(h.fromDate, true) : `${formatDay(h.fromDate, true)} – ${formatDay(h.toDate, true)}`;
}

export function HolidaysDrawer({ orgId, site, onClose }: { orgId: string; site: OrgSite | null; onClose: () => void }) {
  const siteId = site?.id ?? null;
  const holidays = useSiteHolidays(orgId, siteId);
  const create = useCreateHoliday(orgId, siteId ?? '');
  const remove = useDeleteHoliday(orgId, siteId ?? '');
  const [affected, setAffected] = useState<{ input: HolidayInput; bookings: AffectedBooking[] } | null>(null);
  const [toDelete, setToDelete] = useState<Holiday | null>(null);
  const form = useForm<Values>({ mode: 'controlled', initialValues: { name: '', fromDate: null, toDate: null }, validate: (values) => validate(toInput(values)) });
  const today = site ? todayIn(site.timeZone, new Date()) : undefined;

  const added = (name: string, outcomes: { outcome: string }[]) => {
    const cancelled = outcomes.filter((o) => o.outcome === 'cancelled').length;
    toast.success('Closure added', cancelled > 0 ? `${name}: ${cancelled} booking${cancelled === 1 ? '' : 's'} cancelled.` : `${name} is closed to bookings.`);
    form.reset();
  };

  const submit = (values: Values) => {
    const input = toInput(values);
    create.mutate(input, {
      onSuccess: (result) => added(result.holiday.name, result.outcomes),
      onError: (error) => {
        const bookings = affectedBookingsOf(error);
        if (bookings) setAffected({ input, bookings });
        else if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The closure could not be added. Try again.') });
      },
    });
  };

  const resolve = async (resolution: AffectedResolution) => {
    if (!affected) return;
    const result = await create.mutateAsync({ ...affected.input, resolution });
    setAffected(null);
    added(result.holiday.name, result.outcomes);
  };

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => {
        toast.success('Closure removed', `${toDelete.name}: the site is open again on ${holidaySpan(toDelete)}.`);
        setToDelete(null);
      },
      onError: (error) => {
        toast.error('Not removed', errorMessage(error, 'The closure could not be removed.'));
        setToDelete(null);
      },
    });
  };

  const items = holidays.data?.items ?? [];

  return (
    <>
      <Drawer opened={!!site} onClose={onClose} position="right" size="lg" title={site ? `Holiday closures · ${site.name}` : ''}
        styles={{ title: { fontSize: 'var(--mantine-font-size-lg)', fontWeight: 700 } }}
        closeButtonProps={{ 'aria-label': 'Close holiday closures' }}
      >
        {site ? (
          <Stack gap="lg">
            <Text size="sm" c="dimmed">
              The whole site is closed to bookings on these days, from midnight to midnight in {site.timeZone}.
            </Text>
            <form noValidate onSubmit={form.onSubmit(submit)} aria-label="Add a holiday closure">
              <Stack gap="sm">
                <Title order={3} size="h5">
                  Add a closure
                </Title>
                <TextInput label="Name" placeholder="e.g. Christmas Day" withAsterisk maxLength={100} {...form.getInputProps('name')} />
                <Group grow align="flex-start">
                  <DateField
                    label="First day"
                    withAsterisk
                    minDate={today}
                    value={form.values.fromDate}
                    onChange={(d) => {
                      form.setFieldValue('fromDate', d);
                      if (d && (!form.values.toDate || form.values.toDate < d)) form.setFieldValue('toDate', d);
                    }}
                    error={form.errors.fromDate}
                  />
                  <DateField
                    label="Last day"
                    withAsterisk
                    minDate={form.values.fromDate ?? today}
                    value={form.values.toDate}
                    onChange={(d) => form.setFieldValue('toDate', d)}
                    error={form.errors.toDate}
                  />
                </Group>
                {form.errors.form ? (
                  <Alert color="red" role="alert">
                    {String(form.errors.form)}
                  </Alert>
                ) : null}
                <Group justify="flex-end">
                  <Button type="submit" loading={create.isPending && !affected}>
                    Add closure
                  </Button>
                </Group>
              </Stack>
            </form>

            <Stack gap="xs">
              <Title order={3} size="h5">
                Upcoming closures
              </Title>
              {holidays.isLoading ? (
                <Group justify="center" py="md">
                  <Loader size="sm" aria-label="Loading closures" />
                </Group>
              ) : holidays.isError ? (
                <Alert color="red" title="Could not load the closures">
                  {holidays.error instanceof ApiError ? holidays.error.message : 'Try again in a moment.'}
                </Alert>
              ) : items.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No closures planned.
                </Text>
              ) : (
                <Table aria-label="Holiday closures" verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Name</Table.Th>
                      <Table.Th>Days</Table.Th>
                      <Table.Th w={60}>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {items.map((h) => (
                      <Table.Tr key={h.id}>
                        <Table.Td>{h.name}</Table.Td>
                        <Table.Td>{holidaySpan(h)}</Table.Td>
                        <Table.Td>
                          <ActionIcon variant="subtle" color="red" aria-label={`Remove closure ${h.name}`} onClick={() => setToDelete(h)}>
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          </Stack>
        ) : null}
      </Drawer>

      <Modal opened={!!toDelete} onClose={() => setToDelete(null)} title="Remove this closure?" centered>
        <Stack gap="md">
          <Text size="sm">
            {toDelete ? `${toDelete.name} (${holidaySpan(toDelete)}) will be removed and ${site?.name ?? 'the site'} can be booked on those days again.` : ''}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setToDelete(null)}>
              Keep it
            </Button>
            <Button color="red" loading={remove.isPending} onClick={confirmDelete}>
              Remove closure
            </Button>
          </Group>
        </Stack>
      </Modal>

      <AffectedBookingsDialog
        opened={!!affected}
        title={`Closing ${site?.name ?? 'the site'}`}
        description="These bookings fall on the days you are closing. Keep them (the closure still stops new bookings) or cancel them with a reason the hauliers are sent."
        affected={affected?.bookings ?? []}
        timeZone={site?.timeZone}
        actions={['keep', 'cancel']}
        onResolve={resolve}
        onClose={() => setAffected(null)}
      />
    </>
  );
}
