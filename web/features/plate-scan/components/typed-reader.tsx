import { Button, Group, Stack, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { plateField } from '../../../../domain/plate-reads';
import { ApiError, errorMessage } from '../../../lib/api-client';

type Props = {
  isSending: boolean;
  /** Sends the plate as typed; rejects with the server's message. */
  onPlate: (plate: string) => Promise<unknown>;
};

/** The plate typed at the gate: any case and spacing; checked with the server's own rule first. */
export function TypedReader({ isSending, onPlate }: Props) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = plateField.safeParse(value);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Enter the number plate');
      return;
    }
    setError(null);
    try {
      await onPlate(value);
      setValue('');
    } catch (cause) {
      // A field error names the plate; any other refusal or a lost connection is said as it is.
      const details = cause instanceof ApiError && Array.isArray(cause.details) ? (cause.details as Array<{ path?: string; message?: string }>) : [];
      setError(details.find((d) => d.path === 'plate')?.message ?? errorMessage(cause, 'The plate could not be checked. Try again.'));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            label="Number plate"
            description="As it reads on the vehicle; spaces and case do not matter."
            placeholder="ABC 123"
            size="lg"
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              if (error) setError(null);
            }}
            error={error}
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="search"
            maxLength={40}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', textTransform: 'uppercase', letterSpacing: 1 } }}
            style={{ flex: '1 1 220px' }}
          />
        </Group>
        <Group>
          <Button type="submit" size="lg" leftSection={<IconSearch size={20} aria-hidden />} loading={isSending}>
            Find vehicle
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
