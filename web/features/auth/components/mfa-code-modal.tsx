import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { recoveryCodeField, totpCodeField } from '../../../../domain/auth-schemas';
import { errorMessage } from '../../../lib/api-client';

type MfaCodeModalProps = {
  opened: boolean;
  title: string;
  /** What the action does, above the field. */
  children: ReactNode;
  confirmLabel: string;
  /** Offer "use a recovery code" (turning two-factor sign-in off when the phone is gone). */
  allowRecoveryCode?: boolean;
  isDanger?: boolean;
  onClose: () => void;
  /** Rejects with the server's message, shown under the field. */
  onConfirm: (proof: { code: string } | { recoveryCode: string }) => Promise<unknown>;
};

/** Asks for a current code (or a recovery code) before a change to two-factor sign-in. */
export function MfaCodeModal({ opened, title, children, confirmLabel, allowRecoveryCode, isDanger, onClose, onConfirm }: MfaCodeModalProps) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setUseRecovery(false);
    setValue('');
    setError(null);
    setIsBusy(false);
  }, [opened]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = (useRecovery ? recoveryCodeField : totpCodeField).safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter the code');
      return;
    }
    setIsBusy(true);
    setError(null);
    try {
      await onConfirm(useRecovery ? { recoveryCode: parsed.data } : { code: parsed.data });
    } catch (err) {
      setError(errorMessage(err, 'The code could not be checked. Try again.'));
      setIsBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {children}
          <TextInput
            key={useRecovery ? 'recovery' : 'code'}
            label={useRecovery ? 'Recovery code' : 'Authentication code'}
            description={useRecovery ? undefined : 'The 6-digit code your authenticator app shows now.'}
            placeholder={useRecovery ? 'xxxx-xxxx-xxxx-xxxx' : '123456'}
            autoComplete="one-time-code"
            inputMode={useRecovery ? 'text' : 'numeric'}
            data-autofocus
            value={value}
            error={error ? <span role="alert">{error}</span> : undefined}
            onChange={(e) => setValue(e.currentTarget.value)}
          />
          {allowRecoveryCode ? (
            <Anchor component="button" type="button" size="sm" ta="left" onClick={() => { setUseRecovery((v) => !v); setValue(''); setError(null); }}>
              {useRecovery ? 'Use the authenticator app' : 'Use a recovery code instead'}
            </Anchor>
          ) : null}
          {isDanger ? (
            <Alert color="red" variant="light" styles={{ message: { color: 'var(--mantine-color-dark-7)' } }}>
              <Text size="sm">This cannot be undone: you would set it up again from the start.</Text>
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={isBusy}>
              Cancel
            </Button>
            <Button type="submit" color={isDanger ? 'red.8' : undefined} loading={isBusy}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
