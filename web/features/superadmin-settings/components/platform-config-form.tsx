import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import {
  PLATFORM_CONFIG_LIMITS,
  SETTINGS_SAVED_TEXT,
  platformConfigInputSchema,
  type PlanOption,
  type PlatformConfigInput,
  type PlatformSettingsView,
} from '../../../../domain/platform-settings';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useUpdatePlatformSettings } from '../api/platform-settings-api';
import { formatDateTime, formatPlanPrice } from './format';

// The platform configuration form: name, support contact, the default plan for new organizations,
// self sign-up, the two-factor rule for platform roles and the maintenance banner. Read-only for
// platform support (the server refuses their save anyway).

type Values = {
  platformName: string;
  supportEmail: string;
  supportPhone: string;
  defaultPlanId: string | null;
  selfSignUpOpen: boolean;
  maintenanceBanner: string;
  mfaRequired: boolean;
  allowPrivateWebhookTargets: boolean;
  sellerName: string;
  sellerAddress: string;
  sellerTaxNumber: string;
  paymentInstructions: string;
};

const NO_PLAN = 'none';

const toValues = (config: PlatformSettingsView['config']): Values => ({
  platformName: config.platformName,
  supportEmail: config.supportEmail ?? '',
  supportPhone: config.supportPhone ?? '',
  defaultPlanId: config.defaultPlanId,
  selfSignUpOpen: config.selfSignUpOpen,
  maintenanceBanner: config.maintenanceBanner ?? '',
  mfaRequired: config.mfaRequired,
  allowPrivateWebhookTargets: config.allowPrivateWebhookTargets,
  sellerName: config.sellerName ?? '',
  sellerAddress: config.sellerAddress ?? '',
  sellerTaxNumber: config.sellerTaxNumber ?? '',
  paymentInstructions: config.paymentInstructions ?? '',
});

const validate = zodFormValidate(platformConfigInputSchema);

const planLabel = (plan: PlanOption) => `${plan.name} — ${formatPlanPrice(plan)}${plan.active ? '' : ' (no longer offered)'}`;

export function PlatformConfigForm({ view }: { view: PlatformSettingsView }) {
  const form = useForm<Values>({ mode: 'controlled', initialValues: toValues(view.config), validate: (values) => validate(values) });
  const save = useUpdatePlatformSettings();
  const isReadOnly = !view.canEdit;
  const banner = form.values.maintenanceBanner;

  const submit = (values: Values) =>
    save.mutate(values satisfies PlatformConfigInput, {
      onSuccess: (next) => {
        const saved = toValues(next.config);
        form.setValues(saved);
        form.resetDirty(saved);
        toast.success(SETTINGS_SAVED_TEXT, 'The platform configuration is up to date.');
      },
      onError: (error) => {
        applyApiFieldErrors(error, form.setFieldError);
        toast.error('Settings not saved', errorMessage(error, 'The settings could not be saved.'));
      },
    });

  const planOptions = [
    { value: NO_PLAN, label: 'No default plan' },
    ...view.plans.map((plan) => ({ value: plan.id, label: planLabel(plan) })),
  ];

  return (
    <form noValidate onSubmit={form.onSubmit(submit)} aria-labelledby="platform-config-title">
      <Stack gap="lg">
        {isReadOnly ? (
          <Alert color="gray" icon={<IconInfoCircle size={18} aria-hidden />} title="View only" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            Platform support can view the platform settings; super admins and platform owners change them.
          </Alert>
        ) : null}

        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} size="h4" id="platform-config-title">
              Platform
            </Title>
            <TextInput
              label="Platform name"
              withAsterisk
              maxLength={PLATFORM_CONFIG_LIMITS.platformName}
              disabled={isReadOnly}
              {...form.getInputProps('platformName')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Support e-mail"
                type="email"
                autoComplete="email"
                placeholder="support@example.com"
                disabled={isReadOnly}
                {...form.getInputProps('supportEmail')}
              />
              <TextInput label="Support phone" type="tel" autoComplete="tel" placeholder="+61 2 9000 0000" disabled={isReadOnly} {...form.getInputProps('supportPhone')} />
            </SimpleGrid>
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Invoices
            </Title>
            <Text size="sm" c="dimmed">
              Printed on every invoice PDF as the seller, with how to pay.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Seller name"
                description="The legal name; empty: the platform name"
                maxLength={PLATFORM_CONFIG_LIMITS.sellerName}
                disabled={isReadOnly}
                {...form.getInputProps('sellerName')}
              />
              <TextInput label="Tax number" placeholder="ABN 12 345 678 901" maxLength={PLATFORM_CONFIG_LIMITS.sellerTaxNumber} disabled={isReadOnly} {...form.getInputProps('sellerTaxNumber')} />
            </SimpleGrid>
            <Textarea label="Seller address" autosize minRows={2} maxLength={PLATFORM_CONFIG_LIMITS.sellerAddress} disabled={isReadOnly} {...form.getInputProps('sellerAddress')} />
            <Textarea
              label="Payment instructions"
              description="Bank details and the reference to quote"
              autosize
              minRows={2}
              maxLength={PLATFORM_CONFIG_LIMITS.paymentInstructions}
              disabled={isReadOnly}
              {...form.getInputProps('paymentInstructions')}
            />
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Organizations and access
            </Title>
            <Select
              label="Default plan for new organizations"
              description="The plan an organization gets when it is created without one."
              data={planOptions}
              value={form.values.defaultPlanId ?? NO_PLAN}
              onChange={(value) => form.setFieldValue('defaultPlanId', !value || value === NO_PLAN ? null : value)}
              error={form.errors.defaultPlanId}
              allowDeselect={false}
              disabled={isReadOnly}
              maw={480}
            />
            <Switch
              label="Self sign-up is open"
              description="Anyone may create an account on the sign-up page. Off: accounts come by invitation only."
              disabled={isReadOnly}
              {...form.getInputProps('selfSignUpOpen', { type: 'checkbox' })}
            />
            <Switch
              label="Two-factor sign-in is mandatory for platform roles"
              description="Super admins, platform owners and support must enrol an authenticator app before they use the platform screens."
              disabled={isReadOnly}
              {...form.getInputProps('mfaRequired', { type: 'checkbox' })}
            />
            <Switch
              label="Webhooks may call private network addresses"
              description="Off (the safe default): webhook, SSC callback and TSR addresses on loopback, private or link-local networks are refused. On only for an installation whose receivers live on its own network."
              disabled={isReadOnly}
              {...form.getInputProps('allowPrivateWebhookTargets', { type: 'checkbox' })}
            />
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Maintenance banner
            </Title>
            <Textarea
              label="Banner message"
              description="Shown at the top of every screen, to everyone, while it is set. Leave it empty to remove the banner."
              autosize
              minRows={2}
              maxRows={6}
              disabled={isReadOnly}
              {...form.getInputProps('maintenanceBanner')}
            />
            <Text size="xs" c={banner.length > PLATFORM_CONFIG_LIMITS.maintenanceBanner ? 'red.9' : 'dimmed'} aria-live="polite">
              {banner.length} / {PLATFORM_CONFIG_LIMITS.maintenanceBanner} characters
            </Text>
          </Stack>
        </Paper>

        <Group justify="space-between" align="center">
          <Text size="sm" c="dimmed">
            {view.updatedAt ? `Last saved ${formatDateTime(view.updatedAt)}${view.updatedByEmail ? ` by ${view.updatedByEmail}` : ''}.` : 'Not changed since installation.'}
          </Text>
          {isReadOnly ? null : (
            <Group gap="sm">
              <Button variant="default" disabled={!form.isDirty() || save.isPending} onClick={() => form.reset()}>
                Discard changes
              </Button>
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
                Save
              </Button>
            </Group>
          )}
        </Group>
      </Stack>
    </form>
  );
}
