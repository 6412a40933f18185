import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { quoteRequestSchema } from '../../../../domain/quote-request';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useCreateQuoteRequest } from '../api/create-quote-request';

type QuoteFormValues = {
  name: string;
  company: string;
  email: string;
  phone: string;
  sites: number | string;
  message: string;
};

const initialValues: QuoteFormValues = { name: '', company: '', email: '', phone: '', sites: '', message: '' };

/** Form values as the API takes them: empty optional fields are left out. */
function toInput(values: QuoteFormValues) {
  const sites = values.sites === '' ? null : Number(values.sites);
  return {
    name: values.name.trim(),
    company: values.company.trim(),
    email: values.email.trim(),
    phone: values.phone.trim() || null,
    sites: Number.isFinite(sites) ? sites : null,
    message: values.message.trim() || null,
  };
}

/** The landing page's 'Request a Quote' form. */
export function QuoteRequestModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateQuoteRequest();
  const form = useForm<QuoteFormValues>({
    initialValues,
    validate: (values) => zodFormValidate(quoteRequestSchema)(toInput(values)),
  });

  const close = () => {
    create.reset();
    onClose();
  };

  const handleSubmit = form.onSubmit((values) => {
    create.mutate(toInput(values), {
      onSuccess: () => {
        toast.success('Quote Request Sent', 'Thank you! Our team will be in touch shortly.');
        form.reset();
        close();
      },
      // Field errors from the API come from the same schema, so they land on the same fields.
      onError: (error) => applyApiFieldErrors(error, form.setFieldError),
    });
  });

  return (
    <Modal opened={opened} onClose={close} title="Request a Quote" size="lg" centered>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm">
            Tell us about your sites and we will prepare a quote for Baywise. Fields marked with an asterisk are required.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Name" required autoComplete="name" data-autofocus {...form.getInputProps('name')} />
            <TextInput label="Company" required autoComplete="organization" {...form.getInputProps('company')} />
            <TextInput label="Email" type="email" required autoComplete="email" {...form.getInputProps('email')} />
            <TextInput label="Phone (optional)" type="tel" autoComplete="tel" {...form.getInputProps('phone')} />
            <TextInput
              label="Number of sites (optional)"
              type="number"
              inputMode="numeric"
              min={1}
              max={10000}
              step={1}
              {...form.getInputProps('sites')}
            />
          </SimpleGrid>
          <Textarea
            label="Message (optional)"
            placeholder="Bays per site, bookings per day, systems you use (e.g. TSR)…"
            autosize
            minRows={3}
            maxRows={8}
            {...form.getInputProps('message')}
          />
          {create.isError ? (
            <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
              {errorMessage(create.error, 'Could not send your request. Please try again.')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Send request
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
