import { Alert, Button, CopyButton, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload, IconAlertTriangle } from '@tabler/icons-react';

type RecoveryCodesPanelProps = {
  codes: string[];
  email: string;
  /** "I have saved them": the codes are never shown again. */
  onDone: () => void;
};

/** Ten single-use recovery codes, shown this once, to copy or download (decision 018). */
export function RecoveryCodesPanel({ codes, email, onDone }: RecoveryCodesPanelProps) {
  const text = [`Baywise recovery codes for ${email}`, 'Each code signs you in once, without the authenticator app.', '', ...codes, ''].join('\n');

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'baywise-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={18} aria-hidden />}
        title="Save your recovery codes now"
        styles={{ title: { color: 'var(--mantine-color-dark-7)' }, message: { color: 'var(--mantine-color-dark-7)' } }}
      >
        If you lose your phone, a recovery code signs you in instead of a code from the app. Each one works once. They are shown
        only now: keep them somewhere safe, away from this computer.
      </Alert>
      <Paper withBorder radius="md" p="md" bg="gray.0">
        <SimpleGrid
          component="ul"
          cols={{ base: 1, xs: 2 }}
          spacing="xs"
          verticalSpacing={4}
          data-testid="recovery-codes"
          aria-label="Recovery codes"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {codes.map((code) => (
            <Text component="li" key={code} ff="monospace" size="md">
              {code}
            </Text>
          ))}
        </SimpleGrid>
      </Paper>
      <Group gap="sm">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />} onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={download}>
          Download
        </Button>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onDone}>I have saved my recovery codes</Button>
      </Group>
    </Stack>
  );
}
