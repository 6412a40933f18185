import { Button, Group, NumberInput, Paper, Slider, Stack, Switch, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { numberPlateFormSchema, type NumberPlateSettings } from '../../../../../domain/org-settings';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useUpdateSettings } from '../../api/settings-api';

// How sure a plate read must be to count as a match, and whether a match checks the vehicle in.

type Values = { matchThreshold: number | string; autoCheckIn: boolean };
const validate = zodFormValidate(numberPlateFormSchema);
const toInput = (v: Values) => ({ matchThreshold: v.matchThreshold === '' ? Number.NaN : Number(v.matchThreshold), autoCheckIn: v.autoCheckIn });

const MARKS = [
  { value: 0.5, label: '0.5' },
  { value: 0.75, label: '0.75' },
  { value: 1, label: '1' },
];

export function PlateMatchingForm({ orgId, settings }: { orgId: string; settings: NumberPlateSettings }) {
  const form = useForm<Values>({ mode: 'controlled', initialValues: settings, validate: (values) => validate(toInput(values)) });
  const save = useUpdateSettings(orgId);
  const threshold = Number(form.values.matchThreshold);

  const submit = (values: Values) =>
    save.mutate(
      { numberPlates: numberPlateFormSchema.parse(toInput(values)) },
      {
        onSuccess: (view) => {
          form.setValues(view.settings.numberPlates);
          form.resetDirty(view.settings.numberPlates);
          toast.success('Settings saved', 'Number-plate recognition is up to date.');
        },
        onError: (error) => {
          applyApiFieldErrors(error, (path, message) => form.setFieldError(path.replace(/^numberPlates\./, ''), message));
          toast.error('Settings not saved', errorMessage(error, 'The settings could not be saved.'));
        },
      },
    );

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="plates-matching-title">
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <Title order={2} size="h4" id="plates-matching-title">
            Matching
          </Title>
          <Stack gap={6}>
            <Text size="sm" fw={500} id="plates-threshold-label">
              Match threshold
            </Text>
            <Text size="xs" c="dimmed">
              How similar a read must be to an expected plate to count as a match. Common OCR confusions (O/0, I/1, S/5, B/8) are forgiven; higher is stricter.
            </Text>
            <Group align="center" gap="lg" wrap="nowrap">
              <Slider
                flex={1}
                min={0.5}
                max={1}
                step={0.01}
                marks={MARKS}
                value={Number.isFinite(threshold) ? Math.min(1, Math.max(0.5, threshold)) : 0.5}
                onChange={(value) => form.setFieldValue('matchThreshold', value)}
                label={(value) => value.toFixed(2)}
                thumbLabel="Match threshold"
                mb="md"
              />
              <NumberInput
                aria-labelledby="plates-threshold-label"
                w={110}
                min={0.5}
                max={1}
                step={0.01}
                decimalScale={2}
                clampBehavior="none"
                {...form.getInputProps('matchThreshold')}
              />
            </Group>
            {form.errors.matchThreshold ? null : (
              <Text size="xs" c="dimmed">
                {threshold >= 0.9 ? 'Strict: only near-exact reads match.' : threshold >= 0.7 ? 'Balanced.' : 'Lenient: more reads match, some may be wrong.'}
              </Text>
            )}
          </Stack>
          <Switch
            label="Check in automatically on a match"
            description="When a camera or the scanner reads a plate that matches exactly one expected vehicle at or above the threshold, it is checked in without a click (audited)."
            {...form.getInputProps('autoCheckIn', { type: 'checkbox' })}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" disabled={!form.isDirty() || save.isPending} onClick={() => form.reset()}>
              Discard changes
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
              Save matching
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
