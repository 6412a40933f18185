import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { quoteRequestSchema } from '../../../../domain/quote-request';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../i18n/index';
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
  const { t } = useT('landing');
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
        toast.success(t('quote.sentTitle'), t('quote.sentText'));
        form.reset();
        close();
      },
      // Field errors from the API come from the same schema, so they land on the same fields.
      onError: (error) => applyApiFieldErrors(error, form.setFieldError),
    });
  });

  return (
    <Modal opened={opened} onClose={close} title={t('quote')} size="lg" centered>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm">
            {t('quote.intro')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label={t('quote.name')} required autoComplete="name" data-autofocus {...form.getInputProps('name')} />
            <TextInput label={t('quote.company')} required autoComplete="organization" {...form.getInputProps('company')} />
            <TextInput label={t('quote.email')} type="email" required autoComplete="email" {...form.getInputProps('email')} />
            <TextInput label={t('quote.phone')} type="tel" autoComplete="tel" {...form.getInputProps('phone')} />
            <TextInput
              label={t('quote.sites')}
              type="number"
              inputMode="numeric"
              min={1}
              max={10000}
              step={1}
              {...form.getInputProps('sites')}
            />
          </SimpleGrid>
          <Textarea
            label={t('quote.message')}
            placeholder={t('quote.messagePlaceholder')}
            autosize
            minRows={3}
            maxRows={8}
            {...form.getInputProps('message')}
          />
          {create.isError ? (
            <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
              {errorMessage(create.error, t('quote.failed'))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('quote.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('quote.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
