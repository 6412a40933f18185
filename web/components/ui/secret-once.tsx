import { ActionIcon, Alert, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';

// A secret shown once, right after it was made (API keys, camera tokens, webhook signing secrets):
// the warning that it will not be shown again, the value with a copy button, optionally a first
// call that uses it, and Done. The server keeps only a hash or a sealed copy.

/** A copy button with its own tooltip and accessible name ("Copied" once clicked). */
export function CopyField({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : label} withArrow>
          <ActionIcon variant="light" color={copied ? 'teal' : 'indigo'} onClick={copy} aria-label={copied ? 'Copied' : label}>
            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

type Props = {
  /** What happens now, and what to do if it is lost ("This key will not be shown again. …"). */
  warning: ReactNode;
  /** The value's caption ("API key Coastal TMS (Coastal Freight Co)"). */
  label: ReactNode;
  secret: string;
  /** The copy button's name ("Copy key"). */
  copyLabel: string;
  testId: string;
  /** A first call that uses the secret, ready to paste. */
  example?: { title: ReactNode; text: string } | null;
  onDone: () => void;
};

export function SecretOnce({ warning, label, secret, copyLabel, testId, example, onDone }: Props) {
  const labelId = useId();
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" styles={{ title: { color: 'var(--mantine-color-text)' } }} icon={<IconAlertTriangle size={18} aria-hidden />} title="Copy it now" role="status">
        {warning}
      </Alert>
      <Stack gap={4}>
        <Text size="sm" fw={500} id={labelId}>
          {label}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code block flex={1} data-testid={testId} aria-labelledby={labelId} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {secret}
          </Code>
          <CopyField value={secret} label={copyLabel} />
        </Group>
      </Stack>
      {example ? (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {example.title}
          </Text>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Code block flex={1} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {example.text}
            </Code>
            <CopyField value={example.text} label="Copy example call" />
          </Group>
        </Stack>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
