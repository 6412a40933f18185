import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../../../domain/languages';
import { portalFormSchema, type PortalSettings } from '../../../../../domain/org-settings';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useUpdateSettings } from '../../api/settings-api';

// Settings › Booking policy › Portal language: the language the public booking portal opens in for
// this organization, and the one a booking takes when the haulier picked none (an admin's or a
// channel's booking too). The haulier's e-mails and texts are in the booking's language.

type Values = { defaultLanguage: Language };
const validate = zodFormValidate(portalFormSchema);
const OPTIONS = LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }));

export function PortalLanguageCard({ orgId, settings }: { orgId: string; settings: PortalSettings }) {
  const form = useForm<Values>({ mode: 'controlled', initialValues: { defaultLanguage: settings.defaultLanguage }, validate });
  const save = useUpdateSettings(orgId);

  const submit = (values: Values) =>
    save.mutate(
      { portal: portalFormSchema.parse(values) },
      {
        onSuccess: (view) => {
          const next = { defaultLanguage: view.settings.portal.defaultLanguage };
          form.setValues(next);
          form.resetDirty(next);
          toast.success('Portal language saved', `The portal opens in ${LANGUAGE_NAMES[next.defaultLanguage]} unless the haulier picks another language.`);
        },
        onError: (error) => {
          applyApiFieldErrors(error, (path, message) => form.setFieldError(path.replace(/^portal\./, ''), message));
          toast.error('Portal language not saved', errorMessage(error, 'The portal language could not be saved.'));
        },
      },
    );

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="policy-portal-language-title">
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <Title order={2} size="h4" id="policy-portal-language-title">
            Portal language
          </Title>
          <Text size="sm" c="dimmed">
            The language the booking portal opens in. Hauliers can switch it; a booking’s e-mails and text messages are in the language it was made in.
          </Text>
          <Select
            label="Portal language"
            data={OPTIONS}
            allowDeselect={false}
            w={260}
            {...form.getInputProps('defaultLanguage')}
            onChange={(value) => value && form.setFieldValue('defaultLanguage', value as Language)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" disabled={!form.isDirty() || save.isPending} onClick={() => form.reset()}>
              Discard changes
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
              Save portal language
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
