import { ActionIcon, Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_REMINDER_HOURS, MAX_REMINDERS, reminderFormSchema, type ReminderSettings } from '../../../../../domain/org-settings';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useUpdateSettings } from '../../api/settings-api';

// Settings › Booking policy › Reminders: how many hours before an approved booking's start the
// haulier gets a reminder e-mail (with the manage link, arrival code and "Running late?"), and a
// text message when SMS is set up. Up to three; none turns reminders off.

type Values = { hoursBefore: Array<number | string> };
const validate = zodFormValidate(reminderFormSchema);
const toInput = (v: Values) => ({ hoursBefore: v.hoursBefore.map((h) => (h === '' ? Number.NaN : Number(h))) });

export function RemindersCard({ orgId, settings }: { orgId: string; settings: ReminderSettings }) {
  const form = useForm<Values>({ mode: 'controlled', initialValues: { hoursBefore: [...settings.hoursBefore] }, validate: (values) => validate(toInput(values)) });
  const save = useUpdateSettings(orgId);
  const hours = form.values.hoursBefore;

  const submit = (values: Values) =>
    save.mutate(
      { reminders: reminderFormSchema.parse(toInput(values)) },
      {
        onSuccess: (view) => {
          const next = { hoursBefore: [...view.settings.reminders.hoursBefore] };
          form.setValues(next);
          form.resetDirty(next);
          toast.success('Reminders saved', next.hoursBefore.length > 0 ? 'Hauliers are reminded before their bookings.' : 'Hauliers get no reminders.');
        },
        onError: (error) => {
          applyApiFieldErrors(error, (path, message) => form.setFieldError(path.replace(/^reminders\./, ''), message));
          toast.error('Reminders not saved', errorMessage(error, 'The reminders could not be saved.'));
        },
      },
    );

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="policy-reminders-title">
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <Title order={2} size="h4" id="policy-reminders-title">
            Reminders
          </Title>
          <Text size="sm" c="dimmed">
            Hauliers get an e-mail before each approved booking with the time in the site’s time zone, the site’s address, the manage link, the arrival code and QR
            code, and a “Running late?” link. A booking made after a reminder’s time gets only the next one.
          </Text>
          {hours.length === 0 ? (
            <Text size="sm" role="status">
              No reminders: hauliers get none.
            </Text>
          ) : (
            <Stack gap="xs">
              {hours.map((_, index) => (
                <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                  <NumberInput
                    label={`Reminder ${index + 1} (hours before the start)`}
                    min={1}
                    max={MAX_REMINDER_HOURS}
                    step={1}
                    allowDecimal={false}
                    clampBehavior="none"
                    w={260}
                    {...form.getInputProps(`hoursBefore.${index}`)}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    mt={26}
                    aria-label={`Remove reminder ${index + 1}`}
                    onClick={() => {
                      form.removeListItem('hoursBefore', index);
                      form.clearErrors();
                    }}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
            </Stack>
          )}
          {form.errors.hoursBefore ? (
            <Text size="sm" c="red" role="alert">
              {form.errors.hoursBefore}
            </Text>
          ) : null}
          <Group justify="space-between" wrap="wrap">
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              disabled={hours.length >= MAX_REMINDERS}
              onClick={() => form.insertListItem('hoursBefore', hours.length === 0 ? 24 : '')}
            >
              Add reminder
            </Button>
            <Group gap="sm">
              <Button variant="default" disabled={!form.isDirty() || save.isPending} onClick={() => form.reset()}>
                Discard changes
              </Button>
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
                Save reminders
              </Button>
            </Group>
          </Group>
          {hours.length >= MAX_REMINDERS ? (
            <Text size="xs" c="dimmed">
              At most {MAX_REMINDERS} reminders.
            </Text>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}
