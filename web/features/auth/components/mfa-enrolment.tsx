import { Alert, Anchor, Button, Code, CopyButton, Group, Image, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { totpCodeField } from '../../../../domain/auth-schemas';
import { errorMessage } from '../../../lib/api-client';
import { useConfirmMfaEnrolment, useStartMfaEnrolment } from '../api/mfa';

type MfaEnrolmentProps = {
  /** The recovery codes, once the first code turned two-factor sign-in on. */
  onEnrolled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
};

/** The secret in groups of four, as authenticator apps print it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Enrolment (decision 018): a fresh secret as a QR code (drawn by the server) and as a key to type,
 * then the first code from the app turns it on.
 */
export function MfaEnrolment({ onEnrolled, onCancel }: MfaEnrolmentProps) {
  const start = useStartMfaEnrolment();
  const confirm = useConfirmMfaEnrolment();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  // One secret per opening (a ref survives React's development double effect).
  const hasStarted = useRef(false);
  useEffect(() => {
    if (hasStarted.current) return;
    hasStarted.current = true;
    start.mutate();
  }, [start]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = totpCodeField.safeParse(code);
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? 'Enter the code');
      return;
    }
    setCodeError(null);
    confirm.mutate(parsed.data, {
      onSuccess: (result) => onEnrolled(result.recoveryCodes),
      onError: (error) => {
        setCodeError(errorMessage(error, 'The code could not be checked. Try again.'));
        setCode('');
      },
    });
  };

  if (start.isPending || start.isIdle) {
    return (
      <Group justify="center" py="lg">
        <Loader aria-label="Preparing the QR code" />
      </Group>
    );
  }
  if (start.isError) {
    return (
      <Stack gap="sm">
        <Alert color="red" variant="light" role="alert" title="Two-factor sign-in could not be set up" styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}>
          {errorMessage(start.error, 'Try again.')}
        </Alert>
        <Group>
          <Button variant="default" onClick={() => start.mutate()}>
            Try again
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    );
  }

  const enrolment = start.data;
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={3} size="h5">
          1. Scan this QR code with your authenticator app
        </Title>
        <Text size="sm" c="dimmed">
          Google Authenticator, Microsoft Authenticator, 1Password and other TOTP apps work.
        </Text>
        <Image src={enrolment.qrCodeDataUrl} alt="QR code for setting up two-factor sign-in" w={200} h={200} fit="contain" bg="white" />
        <Text size="sm">Cannot scan it? Enter this key in the app instead (time-based, 6 digits):</Text>
        <Group gap="xs" wrap="nowrap">
          <Code fz="sm" data-testid="mfa-secret" data-secret={enrolment.secret} style={{ wordBreak: 'break-all' }}>
            {grouped(enrolment.secret)}
          </Code>
          <CopyButton value={enrolment.secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy} leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h5">
            2. Enter the code the app shows
          </Title>
          <TextInput
            label="Authentication code"
            placeholder="123456"
            autoComplete="one-time-code"
            inputMode="numeric"
            maw={240}
            value={code}
            error={codeError ? <span role="alert">{codeError}</span> : undefined}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <Group gap="sm">
            <Button type="submit" loading={confirm.isPending}>
              Turn on two-factor sign-in
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={onCancel}>
              Cancel
            </Anchor>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
