import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconShieldCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { recoveryCodeField, totpCodeField } from '../../../domain/auth-schemas';

export type MfaCodeProof = { code: string } | { recoveryCode: string };

type MfaCodeFormProps = {
  /** Sends the code; rejects with the server's message, which is shown under the field. */
  onSubmit: (proof: MfaCodeProof) => Promise<void>;
  /** Back to the e-mail and password. */
  onCancel: () => void;
};

/**
 * The second step of a two-factor sign-in (decision 018), shared by every sign-in screen that
 * platform staff use: the 6-digit code from the authenticator app, or one recovery code.
 */
export function MfaCodeForm({ onSubmit, onCancel }: MfaCodeFormProps) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = (useRecovery ? recoveryCodeField : totpCodeField).safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter the code');
      return;
    }
    setError(null);
    setIsSubmitting(true);
    try {
      await onSubmit(useRecovery ? { recoveryCode: parsed.data } : { code: parsed.data });
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'The code could not be checked. Try again.');
      setValue('');
      setIsSubmitting(false);
    }
  };

  const switchMethod = () => {
    setUseRecovery((v) => !v);
    setValue('');
    setError(null);
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Stack gap={4}>
          <IconShieldCheck size={32} aria-hidden color="var(--mantine-color-indigo-8)" />
          <Title order={2} size="h3">
            Two-factor sign-in
          </Title>
          <Text size="sm" c="dimmed">
            {useRecovery
              ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.'
              : 'Enter the 6-digit code from your authenticator app.'}
          </Text>
        </Stack>
        <TextInput
          key={useRecovery ? 'recovery' : 'code'}
          label={useRecovery ? 'Recovery code' : 'Authentication code'}
          placeholder={useRecovery ? 'xxxx-xxxx-xxxx-xxxx' : '123456'}
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          autoCapitalize="off"
          spellCheck={false}
          data-autofocus
          autoFocus
          value={value}
          error={error ? <span role="alert">{error}</span> : undefined}
          onChange={(e) => setValue(e.currentTarget.value)}
        />
        {error ? null : (
          <Alert color="gray" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} styles={{ message: { color: 'var(--mantine-color-dark-7)' } }}>
            {useRecovery ? 'Lost your recovery codes too? Ask another platform administrator to help.' : 'Codes change every 30 seconds.'}
          </Alert>
        )}
        <Button type="submit" fullWidth size="md" disabled={isSubmitting}>
          {isSubmitting ? 'Verifying...' : 'Verify'}
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={switchMethod}>
            {useRecovery ? 'Use the authenticator app' : 'Use a recovery code instead'}
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={onCancel}>
            Back to sign in
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
