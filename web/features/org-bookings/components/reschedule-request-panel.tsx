import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useContext, useState } from 'react';
import { isPlatformRole } from '../../../../domain/enums';
import type { BookingDetail } from '../../../../domain/org-bookings';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { OrgSelectionContext } from '../../org/hooks/org-selection-context';
import { useAcceptRescheduleRequest, useRefuseRescheduleRequest } from '../api/org-bookings-api';
import { formatDateTime, formatSiteRange } from '../utils/booking-display';

// A carrier's reschedule of this confirmed booking awaiting the site (SSC API, docs/ssc-mapping.md):
// the booking keeps its slot until an org admin accepts (it moves, still approved) or refuses (it
// stays); the carrier's system is told either way.

const MINUTE_MS = 60_000;

function RefuseModal({ opened, isPending, onCancel, onConfirm }: { opened: boolean; isPending: boolean; onCancel: () => void; onConfirm: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  return (
    <Modal opened={opened} onClose={onCancel} title="Refuse the new time" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(reason.trim());
        }}
      >
        <Stack>
          <Textarea
            label="Reason (optional)"
            description="The carrier’s system receives it with the refusal."
            autosize
            minRows={3}
            maxLength={500}
            value={reason}
            data-autofocus
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Back
            </Button>
            <Button type="submit" color="red.9" loading={isPending}>
              Refuse
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function RescheduleRequestPanel({ orgId, booking }: { orgId: string; booking: BookingDetail }) {
  const request = booking.rescheduleRequest;
  // Outside the org layout (no selection) the buttons stay hidden: the server refuses non-admins anyway.
  const selectedOrg = useContext(OrgSelectionContext)?.selectedOrg;
  const isAdmin = selectedOrg?.role === 'org_admin' || isPlatformRole(selectedOrg?.role);
  const accept = useAcceptRescheduleRequest(orgId, booking.id);
  const refuse = useRefuseRescheduleRequest(orgId, booking.id);
  const [refusing, setRefusing] = useState(false);
  if (!request) return null;
  const end = new Date(Date.parse(request.startTime) + request.expectedDurationMin * MINUTE_MS).toISOString();
  const failed = (title: string) => (error: unknown) => toast.error(title, error instanceof ApiError ? error.message : 'Try again in a moment.');
  return (
    // Dark title text on the light yellow: the theme's yellow title falls under 4.5:1.
    <Alert color="yellow" variant="light" title="The carrier asks for a new time" styles={{ title: { color: 'var(--mantine-color-text)' } }} data-testid="reschedule-request">
      <Stack gap="xs">
        <Text size="sm">
          {formatSiteRange(request.startTime, end, booking.timeZone)} ({request.expectedDurationMin} minutes). The booking keeps its current time until the request is accepted or refused.
        </Text>
        {request.reasonCode || request.comment ? <Text size="sm">Reason: {[request.reasonCode, request.comment].filter(Boolean).join(' — ')}</Text> : null}
        <Text size="xs" c="dimmed">
          Asked {formatDateTime(request.requestedAt, booking.timeZone)}
        </Text>
        {isAdmin ? (
          <Group gap="xs">
            <Button
              size="sm"
              loading={accept.isPending}
              onClick={() => accept.mutate(undefined, { onSuccess: () => toast.success('New time accepted', 'The booking moved; the carrier is told.'), onError: failed('Not accepted') })}
            >
              Accept new time
            </Button>
            <Button size="sm" variant="outline" color="red.9" onClick={() => setRefusing(true)}>
              Refuse
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            An organization admin accepts or refuses it.
          </Text>
        )}
      </Stack>
      <RefuseModal
        key={refusing ? 'open' : 'closed'}
        opened={refusing}
        isPending={refuse.isPending}
        onCancel={() => setRefusing(false)}
        onConfirm={(reason) =>
          refuse.mutate(reason ? { reason } : {}, {
            onSuccess: () => {
              setRefusing(false);
              toast.success('Request refused', 'The booking keeps its time; the carrier is told.');
            },
            onError: failed('Not refused'),
          })
        }
      />
    </Alert>
  );
}
