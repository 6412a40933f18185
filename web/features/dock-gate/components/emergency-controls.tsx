import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertOctagon } from '@tabler/icons-react';
import { useState } from 'react';
import type { EmergencyState } from '../../../../domain/gate';
import { localTimeOf } from '../../../../domain/slot-grid';

type Props = {
  emergency: EmergencyState;
  timeZone: string;
  isBusy: boolean;
  onStop: (reason: string) => Promise<boolean>;
  onResume: () => Promise<boolean>;
};

/** Who may stop and resume a site (the server answers 403 to anyone else, decision 012). */
export const EMERGENCY_ROLES: ReadonlySet<string> = new Set(['org_admin', 'dockmaster']);

/**
 * While stopped: the banner, for everyone at the gate; Resume (asked first) only for those who may
 * lift the stop (`canResume`), the others are told who can.
 */
export function EmergencyBanner({ emergency, timeZone, isBusy, onResume, canResume }: Omit<Props, 'onStop'> & { canResume: boolean }) {
  const [confirming, setConfirming] = useState(false);
  if (!emergency.isStopped) return null;
  return (
    <>
      <Alert color="red.9" variant="filled" radius="md" icon={<IconAlertOctagon size={28} aria-hidden />} role="alert" data-testid="emergency-banner">
        <Group justify="space-between" align="center" gap="sm">
          <Stack gap={2} style={{ flex: '1 1 260px', minWidth: 0 }}>
            <Text fw={700} size="lg">
              Emergency stop in effect{emergency.since ? ` since ${localTimeOf(new Date(emergency.since), timeZone)}` : ''}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {emergency.reason ? `Reason: ${emergency.reason}` : ''}
              {emergency.byEmail ? ` · by ${emergency.byEmail}` : ''} · Check-in and calls to bays are on hold, and no slots are offered at this site, until it resumes.
            </Text>
          </Stack>
          {canResume ? (
            <Button size="md" color="dark" variant="white" onClick={() => setConfirming(true)}>
              Resume
            </Button>
          ) : (
            <Text size="sm" fw={600} style={{ flex: '0 1 220px' }}>
              A dock master or an organization admin resumes operations.
            </Text>
          )}
        </Group>
      </Alert>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Resume operations" centered>
        <Text size="sm">Lift the emergency stop? The site takes bookings again and bays return to service.</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" size="md" onClick={() => setConfirming(false)} disabled={isBusy}>
            Cancel
          </Button>
          <Button
            size="md"
            loading={isBusy}
            onClick={async () => {
              if (await onResume()) setConfirming(false);
            }}
          >
            Resume operations
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** The Emergency Stop button (show it only to EMERGENCY_ROLES); it asks for the reason first. */
export function EmergencyStopButton({ emergency, isBusy, onStop }: Omit<Props, 'onResume' | 'timeZone'>) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setReason('');
    setError(null);
  };
  return (
    <>
      <Button
        color="red.9"
        size="md"
        leftSection={<IconAlertOctagon size={20} aria-hidden />}
        onClick={() => setOpen(true)}
        disabled={emergency.isStopped}
      >
        Emergency Stop
      </Button>
      <Modal opened={open} onClose={close} title="Emergency Stop" centered>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (!reason.trim()) return setError('Give the reason for the emergency stop');
            if (await onStop(reason.trim())) close();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              Stops all operations at this site: no slots are offered and the organization admins are e-mailed.
            </Text>
            <Textarea
              label="Reason"
              required
              autosize
              minRows={3}
              maxLength={500}
              value={reason}
              error={error}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setError(null);
              }}
              data-autofocus
            />
          </Stack>
          <Group justify="flex-end" mt="md">
            <Button variant="default" size="md" onClick={close} disabled={isBusy}>
              Cancel
            </Button>
            <Button type="submit" size="md" color="red.9" loading={isBusy}>
              Stop all operations
            </Button>
          </Group>
        </form>
      </Modal>
    </>
  );
}
