import { Alert, Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { signInLinkRequestSchema } from '../../../../domain/haulier-accounts';
import { errorMessage } from '../../../lib/api-client';
import { useRequestSignInLink } from '../api/request-sign-in-link';
import { useT } from '../../../i18n/index';

/** The e-mail field that sends a one-time sign-in link, then "Check your e-mail". */
export function SignInCard() {
  const { t, language } = useT('account');
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useRequestSignInLink();

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = signInLinkRequestSchema.safeParse({ email, language });
    if (!parsed.success) {
      setFieldError(t('signIn.emailInvalid'));
      return;
    }
    setFieldError(null);
    request.mutate({ email: parsed.data.email, language }, { onSuccess: () => setSentTo(parsed.data.email) });
  };

  if (sentTo) {
    return (
      <Card withBorder radius="md" padding="lg" maw={520}>
        <Stack gap="sm" role="status">
          <IconMailCheck size={32} aria-hidden color="var(--mantine-primary-color-filled)" />
          <Title order={2} size="h3">
            {t('signIn.checkTitle')}
          </Title>
          <Text>{t('signIn.checkBody', { email: sentTo })}</Text>
          <Text size="sm" c="gray.7">
            {t('signIn.checkHint')}
          </Text>
          <Button variant="default" onClick={() => setSentTo(null)} style={{ alignSelf: 'flex-start' }}>
            {t('signIn.useAnother')}
          </Button>
        </Stack>
      </Card>
    );
  }

  return (
    <Card withBorder radius="md" padding="lg" maw={520}>
      <form onSubmit={submit} noValidate aria-label={t('signIn.title')}>
        <Stack gap="md">
          <Title order={2} size="h3">
            {t('signIn.title')}
          </Title>
          <Text size="sm">{t('signIn.intro')}</Text>
          <TextInput
            label={t('signIn.emailLabel')}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError}
          />
          {request.isError ? (
            <Alert color="red" variant="light" title={t('signIn.failed')}>
              {errorMessage(request.error, t('signIn.failed'))}
            </Alert>
          ) : null}
          <Button type="submit" loading={request.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('signIn.submit')}
          </Button>
          <Text size="xs" c="gray.7">
            {t('signIn.noAccountNeeded')}
          </Text>
        </Stack>
      </form>
    </Card>
  );
}
