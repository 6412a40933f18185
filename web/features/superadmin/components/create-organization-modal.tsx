import { Alert, Button, Divider, Group, Loader, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { INVITATION_TTL_DAYS } from '../../../../domain/org-team';
import {
  createOrganizationSchema,
  organizationFromQuote,
  ORGANIZATION_NAME_MAX,
  SLUG_MAX,
  slugify,
  type CreateOrganizationInput,
  type OfferedPlan,
} from '../../../../domain/platform-admin';
import { paths } from '../../../app/paths';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useCreateOrganization, useOrganizationOptions } from '../api/create-organization';
import { useQuoteRequest } from '../api/quote-requests';
import { formatMoney } from './format';

type Values = {
  name: string;
  slug: string;
  contactEmail: string;
  contactPhone: string;
  /** A plan id, or NO_PLAN. */
  planId: string;
  adminName: string;
  adminEmail: string;
};

const NO_PLAN = 'none';
const EMPTY: Values = { name: '', slug: '', contactEmail: '', contactPhone: '', planId: NO_PLAN, adminName: '', adminEmail: '' };

function toInput(v: Values): CreateOrganizationInput {
  return {
    name: v.name,
    slug: v.slug,
    contactEmail: v.contactEmail,
    contactPhone: v.contactPhone,
    planId: v.planId === NO_PLAN ? null : v.planId,
    adminEmail: v.adminEmail,
    adminName: v.adminName,
  };
}

const validate = zodFormValidate(createOrganizationSchema);

function planOption(plan: OfferedPlan) {
  const price = plan.priceCents === 0 ? 'free' : `${formatMoney(plan.priceCents / 100, plan.currency)}/${plan.interval}`;
  return { value: plan.id, label: `${plan.name} — ${price}` };
}

type Props = {
  opened: boolean;
  /** Converting this quote request: the form starts from it, and it is marked converted. */
  quoteId: string | null;
  onClose: () => void;
};

/**
 * 'New organization': its name, slug (made from the name until edited), contact, plan (the
 * platform's default preselected) and first admin, who is e-mailed an invitation. From a quote
 * request, the form starts with what the request says.
 */
export function CreateOrganizationModal({ opened, quoteId, onClose }: Props) {
  const navigate = useNavigate();
  const options = useOrganizationOptions(opened);
  const quote = useQuoteRequest(opened ? quoteId : null);
  const create = useCreateOrganization();
  const form = useForm<Values>({ mode: 'controlled', initialValues: EMPTY, validate: (values) => validate(toInput(values)) });
  // The slug follows the name until someone types in it.
  const isSlugEdited = useRef(false);
  const isPrefilled = useRef(false);

  const isLoading = options.isPending || (!!quoteId && quote.isPending);
  const loadError = options.error ?? (quoteId ? quote.error : null);

  useEffect(() => {
    if (!opened) {
      isPrefilled.current = false;
      return;
    }
    if (isPrefilled.current || isLoading || loadError) return;
    isPrefilled.current = true;
    isSlugEdited.current = false;
    const planId = options.data?.defaultPlanId ?? NO_PLAN;
    form.setValues({ ...EMPTY, planId, ...(quote.data ? organizationFromQuote(quote.data) : {}) });
    form.resetDirty();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fill once per opening, when the data is there
  }, [opened, isLoading, loadError]);

  const close = () => {
    if (create.isPending) return;
    form.reset();
    create.reset();
    onClose();
  };

  const submit = (values: Values) =>
    create.mutate(
      { input: toInput(values), quoteId },
      {
        onSuccess: (result) => {
          toast.success('Organization created', `${result.organization.name} is ready. An invitation was sent to ${result.invitation.email}.`);
          form.reset();
          create.reset();
          onClose();
          navigate(paths.superadmin.organization(result.organization.id));
        },
        onError: (error) => {
          if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The organization could not be created.') });
        },
      },
    );

  const plans = options.data?.plans ?? [];
  const planData = [...plans.map(planOption), { value: NO_PLAN, label: 'No plan' }];
  const title = quoteId ? 'Convert quote request' : 'New organization';

  return (
    <Modal opened={opened} onClose={close} title={title} size="lg" centered>
      {isLoading ? (
        <Group justify="center" py="xl">
          <Loader aria-label="Loading the form" />
        </Group>
      ) : loadError ? (
        <Stack gap="md">
          <Alert color="red" variant="light" role="alert" title="The form could not be opened" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            {errorMessage(loadError, 'Try again in a moment.')}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Close
            </Button>
          </Group>
        </Stack>
      ) : quote.data?.status === 'converted' ? (
        <Stack gap="md">
          <Alert color="gray" variant="light" role="alert" title="Already converted" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            This quote request from {quote.data.company} was already converted
            {quote.data.convertedOrg ? ` into ${quote.data.convertedOrg.name}` : ''}.
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Close
            </Button>
          </Group>
        </Stack>
      ) : (
        <form noValidate onSubmit={form.onSubmit(submit)} aria-label={title}>
          <Stack gap="md">
            {quote.data ? (
              <Alert color="blue" variant="light" title={`Quote request from ${quote.data.name}, ${quote.data.company}`} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
                <Text size="sm">
                  {quote.data.email}
                  {quote.data.phone ? ` · ${quote.data.phone}` : ''}
                  {quote.data.sites ? ` · ${quote.data.sites} site${quote.data.sites === 1 ? '' : 's'}` : ''}
                </Text>
                {quote.data.message ? (
                  <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {quote.data.message}
                  </Text>
                ) : null}
                <Text size="sm" mt={4}>
                  Creating the organization marks this request as converted.
                </Text>
              </Alert>
            ) : null}
            <TextInput
              label="Organization name"
              withAsterisk
              maxLength={ORGANIZATION_NAME_MAX}
              data-autofocus
              {...form.getInputProps('name')}
              onChange={(event) => {
                const name = event.currentTarget.value;
                form.setFieldValue('name', name);
                if (!isSlugEdited.current) form.setFieldValue('slug', slugify(name));
              }}
            />
            <TextInput
              label="Slug"
              description="Lower-case letters, digits and hyphens; unique. Made from the name until you change it."
              maxLength={SLUG_MAX}
              autoComplete="off"
              {...form.getInputProps('slug')}
              onChange={(event) => {
                isSlugEdited.current = true;
                form.setFieldValue('slug', event.currentTarget.value);
              }}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput label="Contact email" type="email" autoComplete="off" {...form.getInputProps('contactEmail')} />
              <TextInput label="Contact phone" type="tel" autoComplete="off" maxLength={50} {...form.getInputProps('contactPhone')} />
            </SimpleGrid>
            <Select
              label="Plan"
              description={options.data?.defaultPlanId ? "The platform's default plan is chosen unless you pick another." : 'The platform has no default plan.'}
              data={planData}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('planId')}
            />
            <Divider label="First admin" labelPosition="left" />
            <Text size="sm" c="dimmed" mt={-8}>
              We e-mail them a link to set their password and join as organization admin. It works once and for {INVITATION_TTL_DAYS} days.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput label="Admin name" withAsterisk autoComplete="off" {...form.getInputProps('adminName')} />
              <TextInput label="Admin email" type="email" withAsterisk autoComplete="off" {...form.getInputProps('adminEmail')} />
            </SimpleGrid>
            {form.errors.form ? (
              <Alert color="red" variant="light" role="alert" title="Not created" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
                {form.errors.form}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={create.isPending}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                {quoteId ? 'Create organization and convert' : 'Create organization'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
