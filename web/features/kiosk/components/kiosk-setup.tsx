import { Alert, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { KIOSK_SECRET_PREFIX } from '../../../../domain/kiosk';
import { BigButton, bigInput } from './kiosk-ui';

// First run: the tablet has no device secret yet (or its secret was refused). An organization admin
// pastes it here, or opens the setup link shown when the kiosk was registered.

export function KioskSetup({ problem, isChecking, onSave }: { problem: string | null; isChecking: boolean; onSave: (secret: string) => void }) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const value = secret.trim();
    if (!value.startsWith(KIOSK_SECRET_PREFIX)) {
      setError(`Paste the kiosk secret: it starts with ${KIOSK_SECRET_PREFIX}`);
      return;
    }
    setError(null);
    onSave(value);
  };
  return (
    <Stack gap="lg" maw={720} w="100%" mx="auto" p="lg">
      <Title order={1} fz={40}>
        Set up this kiosk
      </Title>
      <Text fz={22}>
        An organization admin registers the kiosk in Settings → Number Plates → Gate kiosks, then opens the setup link on this tablet or pastes the
        secret below.
      </Text>
      {problem ? (
        <Alert color="red.9" variant="filled" title="This kiosk cannot be used" role="alert" styles={{ title: { fontSize: 22 }, message: { fontSize: 20 } }}>
          {problem}
        </Alert>
      ) : null}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            {...bigInput}
            label="Kiosk secret"
            autoComplete="off"
            spellCheck={false}
            value={secret}
            onChange={(event) => setSecret(event.currentTarget.value)}
            error={error}
          />
          <BigButton type="submit" loading={isChecking}>
            Save and start
          </BigButton>
        </Stack>
      </form>
    </Stack>
  );
}
