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
import { useT } from '../../../i18n/index';
import { useTranslateMessage } from '../../../i18n/validation';

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
  const { t, language } = useT('portal');
  const translateMessage = useTranslateMessage();
  const slotTime = formatSiteTime(booking.startTime, tz);

  const isReportable = canReportLate({ status: booking.status, startTime: new Date(booking.startTime) }, tz, new Date());
  if (!isReportable && !moved) {
    // Only the reminder's link asks; elsewhere the page says nothing of it outside the day.
    if (!askedByLink || !['pending', 'approved'].includes(booking.status)) return null;
    return (
      <Alert color="gray" variant="light" styles={alertStyles} title={t('late.title')} role="status">
        {t('late.onlyOnDay')}
      </Alert>
    );
  }

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(eta)) {
      setFieldError(t('late.enterTime'));
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
        onError: (error) => setFieldError(error.message ? translateMessage(error.message) : t('late.sendFailed')),
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
          toast.success(t('move.moved'), t('move.movedText', { time: formatSiteTimeRange(booked.startTime, booked.endTime, booked.timeZone, language) }));
        },
        onError: (error) => {
          setChoice(null);
          setAcceptError(error instanceof ApiError ? translateMessage(error.message) : t('late.moveFailed'));
        },
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="running-late-title" data-testid="running-late">
      <Group gap="xs" mb="sm">
        <IconClockExclamation size={22} aria-hidden />
        <Title order={2} size="h4" id="running-late-title">
          {t('late.title')}
        </Title>
      </Group>

      {moved ? (
        <Alert color="green" variant="light" styles={alertStyles} role="status" title={t('move.moved')}>
          {t('move.movedText', { time: formatSiteTimeRange(moved.startTime, moved.endTime, tz, language) })}
          {moved.status === 'pending' ? ` ${t('late.reviewNote')}` : ''}
        </Alert>
      ) : null}

      {!moved && !isOpen && !result ? (
        <Stack gap="sm" align="flex-start">
          {booking.lateEta ? (
            <Text size="sm" data-testid="late-reported">
              {t('late.known', { time: formatSiteTime(booking.lateEta, tz) })}
            </Text>
          ) : (
            <Text size="sm">{t('late.intro', { slot: slotTime })}</Text>
          )}
          <Button variant="outline" onClick={() => setOpen(true)}>
            {booking.lateEta ? t('late.change') : t('late.title')}
          </Button>
        </Stack>
      ) : null}

      {!moved && isOpen ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm" align="flex-start">
            <TextInput
              type="time"
              label={t('late.eta')}
              description={t('late.etaHelp', { timeZone: tz, slot: slotTime })}
              value={eta}
              onChange={(e) => setEta(e.currentTarget.value)}
              error={fieldError}
              required
              data-autofocus
              w={240}
            />
            <Group gap="sm">
              <Button type="submit" loading={report.isPending}>
                {t('late.tell')}
              </Button>
              <Button variant="default" onClick={() => setOpen(false)} disabled={report.isPending}>
                {t('late.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}

      {!moved && result && !isOpen ? (
        <Stack gap="sm">
          {result.fitsSlot ? (
            <Alert color="green" variant="light" styles={alertStyles} role="status" data-testid="late-fits">
              {t('late.fits', { time: result.etaTime })}
            </Alert>
          ) : (
            <Alert color="orange" variant="light" styles={alertStyles} role="status" data-testid="late-offers" title={t('late.misses', { time: result.etaTime, slot: slotTime })}>
              <Stack gap="xs">
                <Text size="sm">
                  {t('late.closes', { time: result.etaTime, closes: formatSiteTime(result.checkInClosesAt, tz) })}{' '}
                  {result.offers.length > 0 ? t('late.offers') : t('late.noOffers')}
                </Text>
                {result.offers.length > 0 ? (
                  <Group gap="xs">
                    {result.offers.map((offer) => (
                      <Button key={offer.start} size="sm" onClick={() => setChoice(offer)} disabled={accept.isPending}>
                        {t('late.moveTo', { time: offer.time })}
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
              {t('late.changeTime')}
            </Button>
          </Group>
        </Stack>
      ) : null}

      <Modal opened={choice !== null} onClose={accept.isPending ? () => {} : () => setChoice(null)} title={t('late.confirmTitle', { time: choice?.time ?? '' })} centered>
        {choice ? (
          <Stack gap="md">
            <Text size="sm">
              {t('late.confirmText', { slot: slotTime, time: formatSiteTimeRange(choice.start, choice.end, tz, language), site: booking.siteName })}
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setChoice(null)} disabled={accept.isPending}>
                {t('late.keep')}
              </Button>
              <Button onClick={confirmMove} loading={accept.isPending}>
                {t('late.moveTo', { time: choice.time })}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Card>
  );
}
