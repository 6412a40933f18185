import { Alert, Button, Checkbox, Code, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconWebhook } from '@tabler/icons-react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  webhookEndpointInputSchema,
  type WebhookEndpoint,
  type WebhookEndpointInput,
  type WebhookEventType,
} from '../../../../domain/webhooks';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useCreateWebhook, useUpdateWebhook } from './webhooks-api';
import { SecretOnce } from '../../../components/ui/secret-once';

// Add or change a webhook endpoint: URL, description, the events it receives. A new endpoint's
// signing secret is shown once, here (WebhookSecretPanel), and never again.

type FormValues = { url: string; description: string; events: WebhookEventType[] };

const validate = zodFormValidate(webhookEndpointInputSchema);

/** The secret, once, with a copy button (after creating an endpoint or rotating its secret). */
export function WebhookSecretPanel({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <SecretOnce
      warning="This signing secret will not be shown again. Your receiver uses it to check the Baywise-Signature header of every delivery; if it is lost, rotate the secret."
      label="Signing secret"
      secret={secret}
      copyLabel="Copy signing secret"
      testId="webhook-secret"
      onDone={onDone}
    />
  );
}

export function WebhookEndpointModal({
  orgId,
  endpoint,
  opened,
  onClose,
  onCreated,
}: {
  orgId: string;
  /** The endpoint to change; null adds one. */
  endpoint: WebhookEndpoint | null;
  opened: boolean;
  onClose: () => void;
  /** A new endpoint and its secret (the section shows the secret). */
  onCreated: (endpoint: WebhookEndpoint, secret: string) => void;
}) {
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: endpoint
      ? { url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events }
      : { url: '', description: '', events: ['booking.created', 'booking.status_changed'] },
    validate: (values) => validate(values as WebhookEndpointInput),
  });
  const create = useCreateWebhook(orgId);
  const update = useUpdateWebhook(orgId);
  const isPending = create.isPending || update.isPending;

  const onError = (error: unknown) => {
    if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The endpoint could not be saved.') });
  };
  const submit = (values: FormValues) => {
    const input = { url: values.url, description: values.description || null, events: values.events };
    if (endpoint) {
      update.mutate(
        { id: endpoint.id, patch: input },
        {
          onSuccess: () => {
            toast.success('Endpoint saved', values.url);
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate(input, {
        onSuccess: (created) => {
          toast.success('Endpoint added', created.endpoint.url);
          onCreated(created.endpoint, created.secret);
        },
        onError,
      });
    }
  };

  return (
    <Modal opened={opened} onClose={isPending ? () => {} : onClose} title={endpoint ? 'Edit webhook endpoint' : 'Add webhook endpoint'} size="lg">
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <TextInput
            label="Endpoint URL"
            description="Baywise POSTs each event here as JSON. Public http(s) addresses only."
            placeholder="https://erp.example.com/baywise/events"
            withAsterisk
            data-autofocus
            maxLength={WEBHOOK_LIMITS.url}
            {...form.getInputProps('url')}
          />
          <TextInput label="Description" placeholder="ERP integration" maxLength={WEBHOOK_LIMITS.description} {...form.getInputProps('description')} />
          <Checkbox.Group label="Events" description="What this endpoint receives." withAsterisk {...form.getInputProps('events')}>
            <Stack gap={6} mt="xs">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <Checkbox
                  key={type}
                  value={type}
                  label={
                    <>
                      {WEBHOOK_EVENT_LABELS[type]} <Code fz="xs">{type}</Code>
                    </>
                  }
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {form.errors.form ? (
            <Alert color="red" role="alert" title="Not saved">
              {form.errors.form}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={isPending} leftSection={<IconWebhook size={16} aria-hidden />}>
              {endpoint ? 'Save endpoint' : 'Add endpoint'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
