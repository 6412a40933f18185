import { Alert, Button, Checkbox, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  PLAN_DESCRIPTION_MAX,
  PLAN_FEATURES_MAX,
  PLAN_LIMIT_MAX,
  PLAN_NAME_MAX,
  PLAN_PRICE_MAX_USD,
  planInputSchema,
  type Plan,
  type PlanInput,
} from '../../../../domain/billing';
import { errorMessage } from '../../../lib/api-client';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useSavePlan } from '../api/save-plan';
import { alertStyles } from './billing-format';

type Values = {
  name: string;
  description: string;
  priceUsd: number | string;
  maxSites: number | string;
  maxBays: number | string;
  maxMembers: number | string;
  maxBookingsPerMonth: number | string;
  features: string;
  active: boolean;
};

const limitOf = (value: number | string) => (value === '' ? null : Number(value));

/** The form's answers as the API's input: an empty limit is unlimited (null); features one per line. */
function toInput(v: Values): PlanInput {
  return {
    name: v.name,
    description: v.description.trim() ? v.description : null,
    priceUsd: v.priceUsd === '' ? (undefined as unknown as number) : Number(v.priceUsd),
    maxSites: limitOf(v.maxSites),
    maxBays: limitOf(v.maxBays),
    maxMembers: limitOf(v.maxMembers),
    maxBookingsPerMonth: limitOf(v.maxBookingsPerMonth),
    features: v.features
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    active: v.active,
  };
}

const validateInput = zodFormValidate(planInputSchema);
/** A feature's message ('features.2') belongs to the one Features field. */
function validate(input: PlanInput): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(validateInput(input))) {
    const field = key.startsWith('features') ? 'features' : key;
    errors[field] ??= message;
  }
  return errors;
}
const asField = (value: number | null) => (value === null ? '' : value);

type Props = {
  opened: boolean;
  /** null: a new plan. */
  plan: Plan | null;
  onClose: () => void;
  onSaved: (plan: Plan, verb: 'created' | 'saved') => void;
};

/** Create or edit a plan, validated with the API's own schema (domain/billing.ts). */
export function PlanFormModal({ opened, plan, onClose, onSaved }: Props) {
  const save = useSavePlan();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: plan
      ? {
          name: plan.name,
          description: plan.description ?? '',
          priceUsd: plan.priceUsd,
          maxSites: asField(plan.limits.sites),
          maxBays: asField(plan.limits.bays),
          maxMembers: asField(plan.limits.members),
          maxBookingsPerMonth: asField(plan.limits.bookings),
          features: plan.features.join('\n'),
          active: plan.active,
        }
      : { name: '', description: '', priceUsd: '', maxSites: '', maxBays: '', maxMembers: '', maxBookingsPerMonth: '', features: '', active: true },
    validate: (values) => validate(toInput(values)),
  });

  const submit = async (values: Values) => {
    try {
      const saved = await save.mutateAsync({ planId: plan?.id ?? null, input: toInput(values) });
      onSaved(saved, plan ? 'saved' : 'created');
    } catch (error) {
      if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The plan could not be saved. Try again.') });
    }
  };

  const limitInput = (field: 'maxSites' | 'maxBays' | 'maxMembers' | 'maxBookingsPerMonth', label: string) => (
    <NumberInput
      label={label}
      placeholder="Unlimited"
      description="Empty: unlimited"
      allowDecimal={false}
      allowNegative={false}
      min={0}
      max={PLAN_LIMIT_MAX}
      clampBehavior="none"
      thousandSeparator=","
      {...form.getInputProps(field)}
    />
  );

  return (
    <Modal opened={opened} onClose={onClose} title={plan ? `Edit plan ${plan.name}` : 'New plan'} size="lg">
      <form noValidate onSubmit={form.onSubmit((values) => void submit(values))}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" withAsterisk maxLength={PLAN_NAME_MAX} data-autofocus {...form.getInputProps('name')} />
            <NumberInput
              label="Monthly price (USD)"
              withAsterisk
              prefix="$"
              decimalScale={2}
              fixedDecimalScale
              allowNegative={false}
              min={0}
              max={PLAN_PRICE_MAX_USD}
              clampBehavior="none"
              thousandSeparator=","
              {...form.getInputProps('priceUsd')}
            />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} maxLength={PLAN_DESCRIPTION_MAX} {...form.getInputProps('description')} />
          <div>
            <Text size="sm" fw={500}>
              Limits
            </Text>
            <Text size="xs" c="dimmed" mb="xs">
              Enforced when sites, bays, members (pending invitations included) and bookings (per calendar month, UTC) are created. A limit below an
              organization’s current use is allowed: it is flagged, and nothing more can be added until its use is back under it.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {limitInput('maxSites', 'Sites')}
              {limitInput('maxBays', 'Bays')}
              {limitInput('maxMembers', 'Members')}
              {limitInput('maxBookingsPerMonth', 'Bookings per month')}
            </SimpleGrid>
          </div>
          <Textarea
            label="Features"
            description={`One per line, at most ${PLAN_FEATURES_MAX}; shown to customers.`}
            autosize
            minRows={3}
            {...form.getInputProps('features')}
          />
          <Checkbox label="Offered: can be assigned to organizations" {...form.getInputProps('active', { type: 'checkbox' })} />
          {form.errors.form ? (
            <Alert styles={alertStyles} color="red" title="Not saved" role="alert">
              {form.errors.form}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {plan ? 'Save plan' : 'Create plan'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
