import { Alert, Group, Loader, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck, IconClockHour4, IconHandStop, IconQrcode } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { BOOKING_TYPES, type BookingType } from '../../../../domain/enums';
import { kioskWalkInRequestSchema, type KioskCheckInResult, type KioskWalkInRequestInput } from '../../../../domain/kiosk';
import { useQrScanner } from '../hooks/use-qr-scanner';
import { BigButton, bigInput } from './kiosk-ui';
import { useT, type Translate } from '../../../i18n/index';
import { intlLocale } from '../../../i18n/locale';
import { useTranslateMessage } from '../../../i18n/validation';
import type { Language } from '../../../../domain/languages';

// The kiosk's screens: start, scan, type a code or a plate, the answer (go to a bay, wait to be
// called, or what to do instead), and the walk-in request of a truck without a booking.

/** A screen's heading, focused when the screen appears so a screen reader announces it. */
function ScreenTitle({ children, testId }: { children: ReactNode; testId?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <Title order={1} fz={{ base: 34, sm: 48 }} lh={1.15} ref={ref} tabIndex={-1} data-testid={testId} style={{ outline: 'none' }}>
      {children}
    </Title>
  );
}

function BackButton({ onClick, label }: { onClick: () => void; label?: string }) {
  const { t } = useT('kiosk');
  return (
    <BigButton variant="default" c="dark.9" onClick={onClick} leftSection={<IconArrowLeft size={28} aria-hidden />}>
      {label ?? t('back')}
    </BigButton>
  );
}

export function StartScreen({ onScan, onCode, onPlate }: { onScan: () => void; onCode: () => void; onPlate: () => void }) {
  const { t } = useT('kiosk');
  return (
    <Stack gap="lg">
      <ScreenTitle>{t('start.title')}</ScreenTitle>
      <Text fz={24}>{t('start.text')}</Text>
      <BigButton color="indigo.9" onClick={onScan} leftSection={<IconQrcode size={34} aria-hidden />} mih={110} fz={32}>
        {t('start.scan')}
      </BigButton>
      <BigButton variant="outline" color="indigo.9" onClick={onCode}>
        {t('start.code')}
      </BigButton>
      <BigButton variant="outline" color="indigo.9" onClick={onPlate}>
        {t('start.plate')}
      </BigButton>
    </Stack>
  );
}

export function ScanScreen({ onCode, onBack }: { onCode: (text: string) => void; onBack: () => void }) {
  const { videoRef, error, isStarting } = useQrScanner(true, onCode);
  const { t } = useT('kiosk');
  return (
    <Stack gap="lg">
      <ScreenTitle>{t('scan.title')}</ScreenTitle>
      <Text fz={24}>{t('scan.text')}</Text>
      {error ? (
        <Alert color="red.9" variant="filled" role="alert" styles={{ message: { fontSize: 22 } }}>
          {error}
        </Alert>
      ) : (
        <div style={{ position: 'relative', borderRadius: 12, overflow: 'hidden', background: '#000', aspectRatio: '4 / 3', maxHeight: '50vh' }}>
          <video ref={videoRef} muted playsInline data-testid="kiosk-camera" aria-label={t('scan.camera')} style={{ width: '100%', height: '100%', objectFit: 'cover', transform: 'scaleX(-1)' }} />
          {isStarting ? (
            <Group justify="center" style={{ position: 'absolute', inset: 0 }}>
              <Loader color="white" size="xl" aria-label={t('scan.starting')} />
            </Group>
          ) : null}
        </div>
      )}
      <BackButton onClick={onBack} />
    </Stack>
  );
}

export function EntryScreen({
  kind,
  isBusy,
  problem,
  onSubmit,
  onBack,
}: {
  kind: 'code' | 'plate';
  isBusy: boolean;
  problem: string | null;
  onSubmit: (value: string) => void;
  onBack: () => void;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const isCode = kind === 'code';
  const { t } = useT('kiosk');
  return (
    <Stack gap="lg">
      <ScreenTitle>{isCode ? t('entry.codeTitle') : t('entry.plateTitle')}</ScreenTitle>
      <Text fz={24}>{isCode ? t('entry.codeText') : t('entry.plateText')}</Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!value.trim()) {
            setError(isCode ? t('entry.codeTitle') : t('entry.plateTitle'));
            return;
          }
          setError(null);
          onSubmit(value.trim());
        }}
      >
        <Stack gap="lg">
          <TextInput
            {...bigInput}
            label={isCode ? t('entry.codeLabel') : t('entry.plateLabel')}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value.toUpperCase())}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={isCode ? 40 : 20}
            error={error ?? problem}
            data-autofocus
          />
          <BigButton type="submit" color="indigo.9" loading={isBusy}>
            {t('entry.checkIn')}
          </BigButton>
          <BackButton onClick={onBack} />
        </Stack>
      </form>
    </Stack>
  );
}

const at = (iso: string, timeZone: string, language: Language) =>
  new Intl.DateTimeFormat(intlLocale(language), { hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));

type Refused = Extract<KioskCheckInResult, { outcome: 'refused' }>;

/**
 * Why the kiosk refused, in the driver's language: written from the reason and its facts (times in
 * the site's time zone). English, or a server without the facts, shows the server's own words.
 */
function refusalText(result: Refused, timeZone: string, language: Language, t: Translate): { message: string; action: string } {
  if (language === 'en') return { message: result.message, action: result.action };
  const slot = at(result.startTime, timeZone, language);
  switch (result.reason) {
    case 'too_early': {
      if (!result.opensAt) break;
      const opens = at(result.opensAt, timeZone, language);
      // The server knows whether the booking is on another day (its clock): its English message says so.
      if (result.message.startsWith('Your booking is on ')) {
        const day = new Intl.DateTimeFormat(intlLocale(language), { weekday: 'long', day: 'numeric', month: 'long', timeZone }).format(new Date(result.startTime));
        return { message: t('refusal.tooEarlyOtherDay', { day, slot, opens }), action: t('action.comeBack') };
      }
      return { message: t('refusal.tooEarly', { opens, slot }), action: t('action.waitThen') };
    }
    case 'too_late':
      if (result.closesAt === undefined) break;
      return {
        message: result.closesAt ? t('refusal.tooLate', { slot, closes: at(result.closesAt, timeZone, language) }) : t('refusal.tooLateNoTime', { slot }),
        action: t('action.gateHouse'),
      };
    case 'not_approved':
      return { message: t('refusal.notApproved'), action: t('action.gateHouse') };
    case 'not_active':
      if (!result.status) break;
      return { message: t('refusal.notActive', { status: t(`status.${result.status}`) }), action: t('action.gateHouse') };
    case 'vehicle_on_site':
      return { message: t('refusal.vehicleOnSite', { plate: result.vehicleRegistration }), action: t('action.gateHouse') };
    case 'site_stopped':
      if (!result.siteName) break;
      return { message: t('refusal.siteStopped', { site: result.siteName }), action: t('action.followStaff') };
  }
  return { message: result.message, action: result.action };
}

export function ResultScreen({ result, timeZone, onDone }: { result: KioskCheckInResult; timeZone: string; onDone: () => void }) {
  const { t, language } = useT('kiosk');
  const facts = `${result.vehicleRegistration} · ${result.tsrNumber} · ${t('result.booked', { time: at(result.startTime, timeZone, language) })}`;
  if (result.outcome === 'go_to_bay') {
    return (
      <Stack gap="lg" data-testid="kiosk-result" data-outcome="go_to_bay">
        <Group gap="md" wrap="nowrap">
          <IconCircleCheck size={64} color="var(--mantine-color-green-9)" aria-hidden />
          <ScreenTitle testId="kiosk-go-to-bay">{t('result.goToBay', { bay: result.bayName })}</ScreenTitle>
        </Group>
        <Text fz={26}>{t('result.called', { bay: result.bayName })}</Text>
        <Text fz={20} c="dark.6">
          {facts}
        </Text>
        <BigButton onClick={onDone} color="green.9">
          {t('done')}
        </BigButton>
      </Stack>
    );
  }
  if (result.outcome === 'wait') {
    return (
      <Stack gap="lg" data-testid="kiosk-result" data-outcome="wait">
        <Group gap="md" wrap="nowrap">
          <IconClockHour4 size={64} color="var(--mantine-color-indigo-9)" aria-hidden />
          <ScreenTitle testId="kiosk-wait">{t('result.wait', { position: result.position })}</ScreenTitle>
        </Group>
        <Text fz={26}>{t('result.waitText')}</Text>
        <Text fz={20} c="dark.6">
          {facts}
        </Text>
        <BigButton onClick={onDone} variant="default" c="dark.9">
          {t('done')}
        </BigButton>
      </Stack>
    );
  }
  const refusal = refusalText(result, timeZone, language, t);
  return (
    <Stack gap="lg" data-testid="kiosk-result" data-outcome="refused">
      <Group gap="md" wrap="nowrap">
        <IconHandStop size={64} color="var(--mantine-color-orange-9)" aria-hidden />
        <ScreenTitle testId="kiosk-refused">{result.reason === 'too_early' ? t('result.notYet') : t('result.notCheckedIn')}</ScreenTitle>
      </Group>
      <Text fz={28} fw={700}>
        {refusal.message}
      </Text>
      <Text fz={26}>{refusal.action}</Text>
      <Text fz={20} c="dark.6">
        {facts}
      </Text>
      <BigButton onClick={onDone}>{t('result.startOver')}</BigButton>
    </Stack>
  );
}

export function NotFoundScreen({ message, onWalkIn, onRetry }: { message: string; onWalkIn: () => void; onRetry: () => void }) {
  const { t } = useT('kiosk');
  const translateMessage = useTranslateMessage();
  return (
    <Stack gap="lg" data-testid="kiosk-result" data-outcome="not_found">
      <ScreenTitle>{t('notFound.title')}</ScreenTitle>
      <Text fz={24}>{translateMessage(message)}</Text>
      <BigButton color="indigo.9" onClick={onWalkIn}>
        {t('walkIn.title')}
      </BigButton>
      <BigButton variant="default" c="dark.9" onClick={onRetry}>
        {t('tryAgain')}
      </BigButton>
    </Stack>
  );
}

type WalkInValues = { plate: string; company: string; driverName: string; phone: string; bookingType: BookingType };

export function WalkInScreen({ initialPlate, isBusy, problem, onSubmit, onBack }: { initialPlate: string; isBusy: boolean; problem: string | null; onSubmit: (input: KioskWalkInRequestInput) => void; onBack: () => void }) {
  const [values, setValues] = useState<WalkInValues>({ plate: initialPlate, company: '', driverName: '', phone: '', bookingType: 'delivery' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { t } = useT('kiosk');
  const { t: tPortal } = useT('portal');
  const translateMessage = useTranslateMessage();
  // The value is read now: the updater may run after the event's dispatch, when currentTarget is null.
  const set = (key: keyof WalkInValues) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = key === 'plate' ? event.currentTarget.value.toUpperCase() : event.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };
  const submit = () => {
    const input: KioskWalkInRequestInput = { plate: values.plate, company: values.company, driverName: values.driverName || undefined, phone: values.phone || undefined, bookingType: values.bookingType };
    const parsed = kioskWalkInRequestSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), translateMessage(issue.message)])));
      return;
    }
    setErrors({});
    onSubmit(input);
  };
  return (
    <Stack gap="lg">
      <ScreenTitle>{t('walkIn.title')}</ScreenTitle>
      <Text fz={22}>{t('walkIn.text')}</Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput {...bigInput} label={t('walkIn.plate')} withAsterisk value={values.plate} onChange={set('plate')} error={errors.plate} autoComplete="off" autoCapitalize="characters" />
          <TextInput {...bigInput} label={t('walkIn.company')} withAsterisk value={values.company} onChange={set('company')} error={errors.company} autoComplete="organization" />
          <TextInput {...bigInput} label={t('walkIn.driverName')} value={values.driverName} onChange={set('driverName')} error={errors.driverName} autoComplete="name" />
          <TextInput {...bigInput} label={t('walkIn.phone')} type="tel" value={values.phone} onChange={set('phone')} error={errors.phone} autoComplete="tel" />
          <Stack gap={6}>
            <Text fz={22} fw={500} id="walk-in-type-label">
              {t('walkIn.type')}
            </Text>
            <SegmentedControl
              aria-labelledby="walk-in-type-label"
              fullWidth
              size="xl"
              color="indigo.9"
              value={values.bookingType}
              onChange={(value) => setValues((v) => ({ ...v, bookingType: value as BookingType }))}
              data={BOOKING_TYPES.map((type) => ({ value: type, label: tPortal(`bookingType.${type}`) }))}
              styles={{ label: { fontSize: 22, minHeight: 60, display: 'flex', alignItems: 'center', justifyContent: 'center' } }}
            />
          </Stack>
          {problem ? (
            <Alert color="red.9" variant="filled" role="alert" styles={{ message: { fontSize: 20 } }}>
              {problem}
            </Alert>
          ) : null}
          <BigButton type="submit" color="indigo.9" loading={isBusy}>
            {t('walkIn.send')}
          </BigButton>
          <BackButton onClick={onBack} label={t('cancel')} />
        </Stack>
      </form>
    </Stack>
  );
}

export function WalkInSentScreen({ onDone }: { onDone: () => void }) {
  const { t } = useT('kiosk');
  return (
    <Stack gap="lg" data-testid="kiosk-result" data-outcome="walk_in_sent">
      <Group gap="md" wrap="nowrap">
        <IconCircleCheck size={64} color="var(--mantine-color-green-9)" aria-hidden />
        <ScreenTitle>{t('walkIn.sentTitle')}</ScreenTitle>
      </Group>
      <Text fz={26}>{t('walkIn.sentText')}</Text>
      <BigButton onClick={onDone}>{t('done')}</BigButton>
    </Stack>
  );
}
