import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { canReportLate, type LateOffer, type LateReportResult } from '../../../../domain/late-report';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useAcceptLateOffer, useReportRunningLate } from '../api/report-running-late';
import type { ManagedBooking } from '../api/types';
import { formatSiteTime, formatSiteTimeRange } from '../utils/format';
import { alertStyles } from '../utils/styles';

// "Running late?" on the manage page (issue 26 item 5, decision 043): on the day of the booking the
// haulier tells the site when the truck now expects to arrive (site time). When it still fits the
// slot the site simply knows; when it does not, the nearest free slots later that day are offered
// and one can be taken (after a confirmation). Opens by itself when the link carries `?late=1`
// (the reminder e-mail's "Running late?" link).

export type RunningLatePanelProps = { token: string; booking: ManagedBooking };

type Moved = { startTime: string; endTime: string; status: string };

export function RunningLatePanel({ token, booking }: RunningLatePanelProps) {
  const [params] = useSearchParams();
  const askedByLink = params.get('late') === '1';
  const [isOpen, setOpen] = useState(askedByLink);
  const [eta, setEta] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [result, setResult] = useState<LateReportResult | null>(null);
  const [choice, setChoice] = useState<LateOffer | null>(null);
  const [moved, setMoved] = useState<Moved | null>(null);
  const [acceptError, setAcceptError] = useState<string | null>(null);
  const report = useReportRunningLate();
  const accept = useAcceptLateOffer();
  const tz = booking.timeZone;
  const slotTime = formatSiteTime(booking.startTime, tz);

  const isReportable = canReportLate({ status: booking.status, startTime: new Date(booking.startTime) }, tz, new Date());
  if (!isReportable && !moved) {
    // Only the reminder's link asks; elsewhere the page says nothing of it outside the day.
    if (!askedByLink || !['pending', 'approved'].includes(booking.status)) return null;
    return (
      <Alert color="gray" variant="light" styles={alertStyles} title="Running late?" role="status">
        Running late can be reported on the day of your booking, from this page.
      </Alert>
    );
  }

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(eta)) {
      setFieldError('Enter the time you expect to arrive, for example 10:40');
      return;
    }
    setFieldError(null);
    setAcceptError(null);
    report.mutate(
      { token, eta },
      {
        onSuccess: (answer) => {
          setResult(answer);
          setOpen(false);
        },
        onError: (error) => setFieldError(error.message || 'Your arrival time could not be sent. Please try again.'),
      },
    );
  };

  const confirmMove = () => {
    if (!choice) return;
    accept.mutate(
      { token, startTime: choice.start },
      {
        onSuccess: (booked) => {
          setMoved({ startTime: booked.startTime, endTime: booked.endTime, status: booked.status });
          setChoice(null);
          setResult(null);
          toast.success('Booking moved', `Your booking is now ${formatSiteTimeRange(booked.startTime, booked.endTime, booked.timeZone)}.`);
        },
        onError: (error) => {
          setChoice(null);
          setAcceptError(error instanceof ApiError ? error.message : 'The booking could not be moved. Please try again.');
        },
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="running-late-title" data-testid="running-late">
      <Group gap="xs" mb="sm">
        <IconClockExclamation size={22} aria-hidden />
        <Title order={2} size="h4" id="running-late-title">
          Running late?
        </Title>
      </Group>

      {moved ? (
        <Alert color="green" variant="light" styles={alertStyles} role="status" title="Booking moved">
          Your booking is now {formatSiteTimeRange(moved.startTime, moved.endTime, tz)}.
          {moved.status === 'pending' ? ' The site reviews the change; you will get an e-mail.' : ''}
        </Alert>
      ) : null}

      {!moved && !isOpen && !result ? (
        <Stack gap="sm" align="flex-start">
          {booking.lateEta ? (
            <Text size="sm" data-testid="late-reported">
              The site knows you expect to arrive at {formatSiteTime(booking.lateEta, tz)}. If that changes, tell the site again.
            </Text>
          ) : (
            <Text size="sm">If the truck will not reach the gate in time for its {slotTime} slot, tell the site when you now expect to arrive.</Text>
          )}
          <Button variant="outline" onClick={() => setOpen(true)}>
            {booking.lateEta ? 'Change expected arrival' : 'Running late?'}
          </Button>
        </Stack>
      ) : null}

      {!moved && isOpen ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm" align="flex-start">
            <TextInput
              type="time"
              label="Expected arrival at the gate"
              description={`Site time (${tz}). Your slot starts at ${slotTime}.`}
              value={eta}
              onChange={(e) => setEta(e.currentTarget.value)}
              error={fieldError}
              required
              data-autofocus
              w={240}
            />
            <Group gap="sm">
              <Button type="submit" loading={report.isPending}>
                Tell the site
              </Button>
              <Button variant="default" onClick={() => setOpen(false)} disabled={report.isPending}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}

      {!moved && result && !isOpen ? (
        <Stack gap="sm">
          {result.fitsSlot ? (
            <Alert color="green" variant="light" styles={alertStyles} role="status" data-testid="late-fits">
              Thanks — the site knows you expect to arrive at {result.etaTime}.
            </Alert>
          ) : (
            <Alert color="orange" variant="light" styles={alertStyles} role="status" data-testid="late-offers" title={`Arriving at ${result.etaTime} misses your ${slotTime} slot`}>
              <Stack gap="xs">
                <Text size="sm">
                  The site knows you expect to arrive at {result.etaTime}. Check-in for your slot closes at {formatSiteTime(result.checkInClosesAt, tz)}.{' '}
                  {result.offers.length > 0
                    ? 'These slots are still free later today — move your booking to one, or keep it and speak to the site:'
                    : 'No slot is free later today. Please contact the site.'}
                </Text>
                {result.offers.length > 0 ? (
                  <Group gap="xs">
                    {result.offers.map((offer) => (
                      <Button key={offer.start} size="sm" onClick={() => setChoice(offer)} disabled={accept.isPending}>
                        Move to {offer.time}
                      </Button>
                    ))}
                  </Group>
                ) : null}
              </Stack>
            </Alert>
          )}
          {acceptError ? (
            <Alert color="red" variant="light" styles={alertStyles} role="alert">
              {acceptError}
            </Alert>
          ) : null}
          <Group>
            <Button variant="subtle" onClick={() => setOpen(true)}>
              Change arrival time
            </Button>
          </Group>
        </Stack>
      ) : null}

      <Modal opened={choice !== null} onClose={accept.isPending ? () => {} : () => setChoice(null)} title={`Move your booking to ${choice?.time ?? ''}?`} centered>
        {choice ? (
          <Stack gap="md">
            <Text size="sm">
              Your booking moves from {slotTime} to {formatSiteTimeRange(choice.start, choice.end, tz)} at {booking.siteName}. The site reviews the
              change, and you will get an e-mail.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setChoice(null)} disabled={accept.isPending}>
                Keep current booking
              </Button>
              <Button onClick={confirmMove} loading={accept.isPending}>
                Move to {choice.time}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Card>
  );
}
