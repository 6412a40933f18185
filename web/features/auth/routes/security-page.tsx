import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconKey, IconRefresh, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useState } from 'react';
import { MFA_ENROLMENT_REQUIRED } from '../../../../domain/auth-schemas';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDisableMfa, useMfaStatus, useRegenerateRecoveryCodes } from '../api/mfa';
import { MfaCodeModal } from '../components/mfa-code-modal';
import { MfaEnrolment } from '../components/mfa-enrolment';
import { RecoveryCodesPanel } from '../components/recovery-codes-panel';
import { useAuth } from '../hooks/use-auth';

const dayTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
const darkText = { title: { color: 'var(--mantine-color-dark-7)' }, message: { color: 'var(--mantine-color-dark-7)' } };

/**
 * /superadmin/security: the platform user's two-factor sign-in (decision 018) — set it up with an
 * authenticator app, keep recovery codes, replace them, or turn it off. When the platform requires
 * it, a platform user who has not set it up is sent here and can use nothing else until they do.
 */
export default function SecurityPage() {
  usePageTitle('Account security');
  const { user } = useAuth();
  const status = useMfaStatus();
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableMfa();
  const [isEnrolling, setIsEnrolling] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<'regenerate' | 'disable' | null>(null);
  const mfa = status.data;

  return (
    <Stack gap="lg" maw={760}>
      <div>
        <Title order={1} size="h2">
          Account security
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          {user?.email}
        </Text>
      </div>

      {mfa?.required && !mfa.enrolled ? (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Two-factor sign-in required" styles={darkText} role="status">
          {MFA_ENROLMENT_REQUIRED}
        </Alert>
      ) : null}

      <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="mfa-heading">
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Group gap="sm">
              <IconShieldCheck size={22} aria-hidden color="var(--mantine-color-indigo-8)" />
              <Title order={2} size="h4" id="mfa-heading">
                Two-factor sign-in
              </Title>
            </Group>
            {mfa ? (
              <Badge variant="light" color={mfa.enrolled ? 'green' : 'gray'} size="lg" styles={{ root: { color: 'var(--mantine-color-dark-7)' } }}>
                {mfa.enrolled ? 'On' : 'Off'}
              </Badge>
            ) : null}
          </Group>

          {status.isPending ? (
            <Group justify="center" py="md">
              <Loader aria-label="Loading two-factor sign-in" />
            </Group>
          ) : status.isError || !mfa ? (
            <Alert color="red" variant="light" role="alert" title="Could not load two-factor sign-in" styles={darkText}>
              {errorMessage(status.error, 'Try again.')}
            </Alert>
          ) : codes ? (
            <RecoveryCodesPanel codes={codes} email={user?.email ?? ''} onDone={() => setCodes(null)} />
          ) : mfa.enrolled ? (
            <Stack gap="sm">
              <Text size="sm">
                Signing in asks for a code from your authenticator app after your password
                {mfa.confirmedAt ? ` (on since ${dayTime.format(new Date(mfa.confirmedAt))})` : ''}.
              </Text>
              <Text size="sm" fw={600} c={mfa.recoveryCodesLeft <= 3 ? 'red.9' : undefined} data-testid="recovery-codes-left">
                {mfa.recoveryCodesLeft} recovery code{mfa.recoveryCodesLeft === 1 ? '' : 's'} left
                {mfa.recoveryCodesLeft <= 3 ? ' — make new ones soon.' : ''}
              </Text>
              <Group gap="sm" mt="xs">
                <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => setDialog('regenerate')}>
                  New recovery codes
                </Button>
                <Button variant="outline" color="red.8" leftSection={<IconShieldOff size={16} aria-hidden />} onClick={() => setDialog('disable')}>
                  Turn off two-factor sign-in
                </Button>
              </Group>
            </Stack>
          ) : isEnrolling ? (
            <MfaEnrolment
              onEnrolled={(recoveryCodes) => {
                setIsEnrolling(false);
                setCodes(recoveryCodes);
                toast.success('Two-factor sign-in is on', 'Your next sign-in asks for a code from the app.');
              }}
              onCancel={() => setIsEnrolling(false)}
            />
          ) : (
            <Stack gap="sm">
              <Text size="sm">
                Protect your platform account with a second step at sign-in: a 6-digit code from an authenticator app on your
                phone, or one of ten recovery codes.
              </Text>
              {!mfa.canEnrol ? (
                <Text size="sm" c="dimmed">
                  Two-factor sign-in is available to platform staff accounts.
                </Text>
              ) : (
                <Group>
                  <Button leftSection={<IconKey size={16} aria-hidden />} onClick={() => setIsEnrolling(true)}>
                    Set up two-factor sign-in
                  </Button>
                </Group>
              )}
            </Stack>
          )}
        </Stack>
      </Paper>

      <MfaCodeModal
        opened={dialog === 'regenerate'}
        title="New recovery codes"
        confirmLabel="Make new codes"
        onClose={() => setDialog(null)}
        onConfirm={async (proof) => {
          const result = await regenerate.mutateAsync('code' in proof ? proof.code : '');
          setDialog(null);
          setCodes(result.recoveryCodes);
        }}
      >
        <Text size="sm">Ten new recovery codes replace the ones you have; the old codes stop working.</Text>
      </MfaCodeModal>
      <MfaCodeModal
        opened={dialog === 'disable'}
        title="Turn off two-factor sign-in?"
        confirmLabel="Turn off"
        allowRecoveryCode
        isDanger
        onClose={() => setDialog(null)}
        onConfirm={async (proof) => {
          await disable.mutateAsync(proof);
          setDialog(null);
          toast.success('Two-factor sign-in is off', 'Your password alone signs you in now.');
        }}
      >
        <Text size="sm">
          Your password alone will sign you in. {mfa?.required ? 'The platform requires two-factor sign-in: you will be asked to set it up again.' : ''}
        </Text>
      </MfaCodeModal>
    </Stack>
  );
}
