import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { MAX_BOOKINGS_PER_DAY_LIMIT, tenantInputSchema, type Tenant, type TenantDetail, type TenantInput, type TenantStatus } from '../../../../domain/org-tenants';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { zodFormValidate } from '../../../lib/zod-form';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useCreateTenant, useUpdateTenant } from '../api/org-tenants-api';
import { alertStyles } from '../utils/tenant-display';

type Values = {
  name: string;
  contactEmails: string[];
  phone: string;
  emailDomains: string[];
  notes: string;
  status: TenantStatus;
  blockedReason: string;
  autoApprove: boolean;
  standingRequestsAllowed: boolean;
  siteScope: 'all' | 'some';
  allowedSiteIds: string[];
  maxBookingsPerDay: number | string;
};

const EMPTY: Values = {
  name: '',
  contactEmails: [],
  phone: '',
  emailDomains: [],
  notes: '',
  status: 'active',
  blockedReason: '',
  autoApprove: false,
  standingRequestsAllowed: false,
  siteScope: 'all',
  allowedSiteIds: [],
  maxBookingsPerDay: '',
};

function valuesOf(tenant: Tenant | null): Values {
  if (!tenant) return EMPTY;
  return {
    name: tenant.name,
    contactEmails: tenant.contactEmails,
    phone: tenant.phone ?? '',
    emailDomains: tenant.emailDomains,
    notes: tenant.notes ?? '',
    status: tenant.status,
    blockedReason: tenant.blockedReason ?? '',
    autoApprove: tenant.autoApprove,
    standingRequestsAllowed: tenant.standingRequestsAllowed,
    siteScope: tenant.allowedSiteIds ? 'some' : 'all',
    allowedSiteIds: tenant.allowedSiteIds ?? [],
    maxBookingsPerDay: tenant.maxBookingsPerDay ?? '',
  };
}

/** The form's answers as the shared schema's input. */
function toInput(v: Values): TenantInput {
  return {
    name: v.name,
    contactEmails: v.contactEmails,
    phone: v.phone,
    emailDomains: v.emailDomains,
    notes: v.notes,
    status: v.status,
    blockedReason: v.status === 'blocked' ? v.blockedReason : null,
    autoApprove: v.autoApprove,
    standingRequestsAllowed: v.standingRequestsAllowed,
    allowedSiteIds: v.siteScope === 'all' ? null : v.allowedSiteIds,
    maxBookingsPerDay: v.maxBookingsPerDay === '' ? null : Number(v.maxBookingsPerDay),
  };
}

/** A list's item errors ('contactEmails.1') belong to the list's field. */
const fieldOf = (path: string) => path.split('.')[0]!;
const validateInput = zodFormValidate(tenantInputSchema);
function validate(values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(validateInput(toInput(values)))) errors[fieldOf(path)] ??= message;
  return errors;
}

type Props = {
  orgId: string;
  opened: boolean;
  /** null: a new tenant. */
  tenant: Tenant | null;
  onClose: () => void;
  onSaved?: (tenant: TenantDetail) => void;
};

/** Add or edit a tenant: contacts, the e-mail domains its portal requests link by, and its booking policy. */
export function TenantFormModal({ orgId, opened, tenant, onClose, onSaved }: Props) {
  const { sites } = useOrgSelection();
  const create = useCreateTenant(orgId);
  const update = useUpdateTenant(orgId);
  const form = useForm<Values>({ mode: 'controlled', initialValues: valuesOf(tenant), validate });

  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(tenant));
      form.resetDirty(valuesOf(tenant));
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset when the modal opens for a tenant
  }, [opened, tenant?.id]);

  // The organization's active sites, plus any allowed site no longer listed (so it can be removed).
  const siteOptions = [
    ...sites.map((s) => ({ value: s.id, label: s.name })),
    ...(tenant?.allowedSiteIds ?? []).filter((id) => !sites.some((s) => s.id === id)).map((id) => ({ value: id, label: 'Inactive site' })),
  ];

  const saving = create.isPending || update.isPending;
  const submit = (values: Values) => {
    const input = toInput(values);
    const onError = (error: Error) => {
      const details = error instanceof ApiError ? error.details : undefined;
      let applied = false;
      if (Array.isArray(details)) {
        for (const item of details as { path?: unknown; message?: unknown }[]) {
          if (typeof item?.path === 'string' && typeof item.message === 'string') {
            form.setFieldError(fieldOf(item.path), item.message);
            applied = true;
          }
        }
      }
      if (!applied) form.setErrors({ form: error instanceof ApiError ? error.message : 'The tenant could not be saved' });
    };
    const onSuccess = (saved: TenantDetail) => {
      toast.success(tenant ? 'Tenant saved' : 'Tenant added', saved.name);
      onSaved?.(saved);
      onClose();
    };
    if (tenant) update.mutate({ id: tenant.id, patch: input }, { onSuccess, onError });
    else create.mutate(input, { onSuccess, onError });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={tenant ? `Edit ${tenant.name}` : 'Add tenant'} size="lg">
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <TextInput label="Company name" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TagsInput
              label="Contact e-mails"
              description="Press Enter after each address"
              placeholder="dispatch@company.com"
              splitChars={[',', ';', ' ']}
              clearable
              {...form.getInputProps('contactEmails')}
            />
            <TextInput label="Phone" type="tel" {...form.getInputProps('phone')} />
          </SimpleGrid>
          <TagsInput
            label="E-mail domains"
            description="Portal requests from these domains link to this tenant (e.g. company.com)"
            placeholder="company.com"
            splitChars={[',', ';', ' ']}
            clearable
            {...form.getInputProps('emailDomains')}
          />

          <Stack gap={6}>
            <Text size="sm" fw={500} id="tenant-status-label">
              Status
            </Text>
            <SegmentedControl
              aria-labelledby="tenant-status-label"
              data={[
                { value: 'active', label: 'Active' },
                { value: 'blocked', label: 'Blocked' },
              ]}
              value={form.values.status}
              onChange={(value) => form.setFieldValue('status', value as TenantStatus)}
              color={form.values.status === 'blocked' ? 'red.8' : undefined}
              w={240}
            />
            {form.values.status === 'blocked' ? (
              <Textarea
                label="Reason for blocking"
                description="For your team; the haulier is told only that bookings are not accepted"
                autosize
                minRows={2}
                {...form.getInputProps('blockedReason')}
              />
            ) : null}
          </Stack>

          <Switch
            label="Approve this tenant's portal requests automatically"
            description="They skip review and are confirmed to the haulier at once"
            {...form.getInputProps('autoApprove', { type: 'checkbox' })}
          />

          <Switch
            label="May request standing bookings"
            description="A signed-in haulier of this tenant may ask for a recurring booking; an admin approves or declines it"
            {...form.getInputProps('standingRequestsAllowed', { type: 'checkbox' })}
          />

          <Radio.Group
            label="Sites"
            description="Where this tenant's portal requests may be booked"
            value={form.values.siteScope}
            onChange={(value) => form.setFieldValue('siteScope', value as Values['siteScope'])}
          >
            <Group mt={6}>
              <Radio value="all" label="Every site" />
              <Radio value="some" label="Only these sites" />
            </Group>
          </Radio.Group>
          {form.values.siteScope === 'some' ? (
            <MultiSelect
              label="Allowed sites"
              placeholder={form.values.allowedSiteIds.length ? undefined : 'Choose sites'}
              data={siteOptions}
              value={form.values.allowedSiteIds}
              onChange={(value) => form.setFieldValue('allowedSiteIds', value)}
              error={form.errors.allowedSiteIds}
              clearable
            />
          ) : form.errors.allowedSiteIds ? (
            <Text size="sm" c="red.8">
              {form.errors.allowedSiteIds}
            </Text>
          ) : null}

          <NumberInput
            label="Most bookings a day"
            description="Across all sites, on one day; leave empty for no limit"
            min={1}
            max={MAX_BOOKINGS_PER_DAY_LIMIT}
            allowDecimal={false}
            allowNegative={false}
            maw={360}
            {...form.getInputProps('maxBookingsPerDay')}
          />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />

          {form.errors.form ? (
            <Alert styles={alertStyles} color="red" title="Not saved" role="alert">
              {form.errors.form}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              {tenant ? 'Save tenant' : 'Add tenant'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
