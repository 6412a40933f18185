import { Alert, Button, Checkbox, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AffectedBooking, AffectedResolution } from '../../../../domain/affected-bookings';
import { BAY_FEATURES, SPECIAL_ACCESS_LABELS } from '../../../../domain/enums';
import {
  bayFormSchema,
  MAX_BAY_CAPACITY,
  MAX_BAY_CLEARANCE_M,
  MAX_BAY_LENGTH_M,
  MAX_BAY_NAME_LENGTH,
  type BayFormInput,
  type BayItem,
  type BayWriteResult,
} from '../../../../domain/org-bays';
import { affectedBookingsOf } from '../../../components/bookings/affected-bookings-dialog';
import { SelectField, type SelectOption } from '../../../components/ui/select-field';
import { errorMessage } from '../../../lib/api-client';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useCreateBay, useUpdateBay } from '../api/org-bays-api';

type Values = {
  siteId: string;
  name: string;
  heightClearanceM: number | string;
  lengthM: number | string;
  features: string[];
  capacity: number | string;
};

/** The form's answers as the shared schema's input (an empty length is no limit: null). */
function toInput(v: Values) {
  return {
    siteId: v.siteId,
    name: v.name,
    heightClearanceM: v.heightClearanceM === '' ? undefined : Number(v.heightClearanceM),
    lengthM: v.lengthM === '' ? null : Number(v.lengthM),
    features: v.features,
    capacity: v.capacity === '' ? undefined : Number(v.capacity),
  };
}

const validate = zodFormValidate(bayFormSchema);

/** The edit that needs the admin's choice about its bookings: re-sent with the resolution. */
export type AffectedRequest = {
  title: string;
  affected: AffectedBooking[];
  resend: (resolution: AffectedResolution) => Promise<BayWriteResult>;
};

type Props = {
  orgId: string;
  opened: boolean;
  /** null: a new bay. */
  bay: BayItem | null;
  sites: SelectOption[];
  defaultSiteId: string | null;
  onClose: () => void;
  onSaved: (result: BayWriteResult, verb: 'added' | 'saved') => void;
  /** The server asked what to do with the upcoming bookings the edit affects. */
  onAffected: (request: AffectedRequest) => void;
};

/** Add or edit a bay, validated with the API's own schema (domain/org-bays.ts). */
export function BayFormModal({ orgId, opened, bay, sites, defaultSiteId, onClose, onSaved, onAffected }: Props) {
  const create = useCreateBay(orgId);
  const update = useUpdateBay(orgId);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: bay
      ? {
          siteId: bay.siteId,
          name: bay.name,
          heightClearanceM: bay.heightClearanceM,
          lengthM: bay.lengthM ?? '',
          features: bay.features,
          capacity: bay.capacity,
        }
      : { siteId: defaultSiteId ?? '', name: '', heightClearanceM: '', lengthM: '', features: [], capacity: 1 },
    validate: (values) => validate(toInput(values)),
  });
  // A bay at a site the selector does not list (an inactive one) keeps its own site as an option.
  const siteOptions = bay && !sites.some((s) => s.value === bay.siteId) ? [...sites, { value: bay.siteId, label: bay.siteName }] : sites;
  const pending = create.isPending || update.isPending;

  const submit = async (values: Values) => {
    // Validated with the same schema before submit gets here.
    const input = toInput(values) as BayFormInput;
    try {
      if (bay) {
        const result = await update.mutateAsync({ bayId: bay.id, input });
        onSaved(result, 'saved');
      } else {
        const result = await create.mutateAsync(input);
        onSaved(result, 'added');
      }
    } catch (error) {
      const affected = affectedBookingsOf(error);
      if (affected && bay) {
        onAffected({
          title: `Changing bay ${bay.name}`,
          affected,
          resend: (resolution) => update.mutateAsync({ bayId: bay.id, input: { ...input, resolution } }),
        });
        return;
      }
      if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The bay could not be saved. Try again.') });
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={bay ? `Edit bay ${bay.name}` : 'Add bay'} size="lg">
      <form noValidate onSubmit={form.onSubmit((values) => void submit(values))}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            A vehicle is offered a bay only if it fits under the clearance, within the length and the bay has every feature its load needs.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <SelectField
              label="Site"
              withAsterisk
              data={[{ value: '', label: 'Choose a site' }, ...siteOptions]}
              {...form.getInputProps('siteId')}
            />
            <TextInput label="Name" withAsterisk maxLength={MAX_BAY_NAME_LENGTH} placeholder="e.g. N-13" data-autofocus {...form.getInputProps('name')} />
            <NumberInput
              label="Height clearance (m)"
              withAsterisk
              decimalScale={2}
              step={0.1}
              min={0.01}
              max={MAX_BAY_CLEARANCE_M}
              clampBehavior="none"
              {...form.getInputProps('heightClearanceM')}
            />
            <NumberInput
              label="Length (m)"
              placeholder="No limit"
              decimalScale={2}
              step={0.5}
              min={0.01}
              max={MAX_BAY_LENGTH_M}
              clampBehavior="none"
              {...form.getInputProps('lengthM')}
            />
            <NumberInput
              label="Capacity"
              description="Vehicles the bay holds at once"
              withAsterisk
              allowDecimal={false}
              min={1}
              max={MAX_BAY_CAPACITY}
              clampBehavior="none"
              {...form.getInputProps('capacity')}
            />
          </SimpleGrid>
          <Checkbox.Group label="Features" description="Special access needs the bay can serve" {...form.getInputProps('features')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
              {BAY_FEATURES.map((feature) => (
                <Checkbox key={feature} value={feature} label={SPECIAL_ACCESS_LABELS[feature]} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          {form.errors.form ? (
            <Alert color="red" title="Not saved" role="alert">
              {form.errors.form}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {bay ? 'Save changes' : 'Add bay'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
