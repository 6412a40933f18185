import { Box, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KioskCheckInInput, KioskCheckInResult, KioskWalkInRequestInput } from '../../../../domain/kiosk';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import kioskCatalogue from 'virtual:i18n-namespace/kiosk';
import type { Language } from '../../../../domain/languages';
import { I18nNamespace, I18nProvider, useLanguage, useOrganizationDefaultLanguage, useT } from '../../../i18n/index';
import { LanguagePicker } from '../../../i18n/language-picker';
import { useTranslateMessage } from '../../../i18n/validation';
import { checkInAtKiosk, getKioskBookingStatus, getKioskLogo, getKioskMe, readKioskSecret, requestWalkIn, saveKioskSecret, takeSecretFromLocation } from '../api/kiosk-api';
import { KioskSetup } from '../components/kiosk-setup';
import { EntryScreen, NotFoundScreen, ResultScreen, ScanScreen, StartScreen, WalkInScreen, WalkInSentScreen } from '../components/kiosk-screens';

// /kiosk (issue 26, decision 041): the tablet at a site's gate house. No staff sign-in: the device
// secret (pasted once, or from the setup link) is kept in this browser. Drivers scan the QR code
// from their e-mail, or type the code or the plate; the answer is where to go, to wait (the
// screen follows the queue until the dock calls the truck), or what to do instead. Unknown trucks
// register as walk-ins. Every screen returns to the start after a while without a touch.

type Screen =
  | { kind: 'start' }
  | { kind: 'scan' }
  | { kind: 'code' }
  | { kind: 'plate' }
  | { kind: 'result'; result: KioskCheckInResult }
  | { kind: 'not_found'; message: string; plate: string }
  | { kind: 'walk_in'; plate: string }
  | { kind: 'walk_in_sent' };

/** Seconds without a touch before a screen returns to the start. */
const IDLE_SECONDS: Record<Screen['kind'], number | null> = {
  start: null,
  scan: 60,
  code: 90,
  plate: 90,
  result: 45,
  not_found: 45,
  walk_in: 120,
  walk_in_sent: 30,
};
const WAITING_IDLE_SECONDS = 180;
/** Seconds the start screen stays in a language a driver picked before it returns to the kiosk's own. */
const START_LANGUAGE_IDLE_SECONDS = 60;
const STATUS_POLL_MS = 3_000;

const SECRET_PROBLEMS = new Set(['kiosk_secret_required', 'kiosk_unknown', 'kiosk_revoked', 'kiosk_inactive']);
const isSecretProblem = (error: unknown) => error instanceof ApiError && error.status === 401 && SECRET_PROBLEMS.has(error.code);

/** /kiosk, in the driver's language (issue 27): the picker is in the header. */
export default function KioskPage() {
  return (
    <I18nProvider>
      <I18nNamespace catalogue={kioskCatalogue}>
        <Kiosk />
      </I18nNamespace>
    </I18nProvider>
  );
}

function Kiosk() {
  const { t } = useT('kiosk');
  usePageTitle(t('pageTitle'));
  const [secret, setSecret] = useState<string | null>(() => {
    const fromLink = takeSecretFromLocation();
    if (fromLink) saveKioskSecret(fromLink);
    return fromLink ?? readKioskSecret();
  });
  const me = useQuery({ queryKey: ['kiosk', 'me', secret], queryFn: () => getKioskMe(secret!), enabled: !!secret, retry: (count, error) => !isSecretProblem(error) && count < 2 });
  useOrganizationDefaultLanguage(me.data?.defaultLanguage);
  const logo = useQuery({ queryKey: ['kiosk', 'logo', secret], queryFn: () => getKioskLogo(secret!), enabled: !!secret && !!me.data?.hasLogo, staleTime: Infinity });

  const save = (value: string) => {
    saveKioskSecret(value);
    setSecret(value);
  };

  let content;
  if (!secret || isSecretProblem(me.error)) {
    content = <KioskSetup problem={me.error ? errorMessage(me.error, 'The secret was refused.') : null} isChecking={me.isFetching} onSave={save} />;
  } else if (!me.data) {
    content = me.isError ? (
      <Stack p="xl" gap="md" role="alert">
        <Text fz={28} fw={700}>
          {t('page.cannotReach')}
        </Text>
        <Text fz={22}>
          {errorMessage(me.error, t('page.checkNetwork'))} {t('page.retries')}
        </Text>
      </Stack>
    ) : (
      <Group justify="center" p="xl">
        <Loader size="xl" aria-label={t('page.starting')} />
      </Group>
    );
  } else {
    content = <KioskFlow secret={secret} timeZone={me.data.timeZone} homeLanguage={me.data.defaultLanguage} onSecretRefused={() => void me.refetch()} />;
  }

  return (
    <Box mih="100vh" bg="white" c="dark.9" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" px={{ base: 'md', sm: 'xl' }} py="md" bg="dark.8" c="white">
        <Group justify="space-between" wrap="nowrap" gap="md">
          <Group gap="md" wrap="nowrap" style={{ minWidth: 0 }}>
            {logo.data ? <Image src={logo.data} alt="" h={48} w="auto" fit="contain" bg="white" p={4} radius="sm" /> : null}
            <Text fz={{ base: 22, sm: 28 }} fw={800} truncate>
              {me.data ? me.data.orgName : 'Baywise'}
            </Text>
          </Group>
          <Group gap="md" wrap="nowrap" style={{ flexShrink: 0 }}>
            {me.data ? (
              <Text fz={{ base: 18, sm: 22 }} ta="right">
                {me.data.siteName}
              </Text>
            ) : null}
            <LanguagePicker />
          </Group>
        </Group>
      </Box>
      <Box component="main" px={{ base: 'md', sm: 'xl' }} py="xl" maw={900} w="100%" mx="auto" style={{ flex: 1 }}>
        {content}
      </Box>
    </Box>
  );
}

function KioskFlow({ secret, timeZone, homeLanguage, onSecretRefused }: { secret: string; timeZone: string; homeLanguage: Language; onSecretRefused: () => void }) {
  const { t } = useT('kiosk');
  const [language, setLanguage] = useLanguage();
  const languageNow = useRef(language);
  languageNow.current = language;
  const translateMessage = useTranslateMessage();
  const [screen, setScreen] = useState<Screen>({ kind: 'start' });
  const [entryProblem, setEntryProblem] = useState<string | null>(null);
  const restart = useCallback(() => {
    setEntryProblem(null);
    setScreen({ kind: 'start' });
  }, []);
  // The driver is done, or gone: the start screen, in the organization's portal language for the
  // next one (a driver's pick of language is theirs alone).
  const finish = useCallback(() => {
    restart();
    if (languageNow.current !== homeLanguage) setLanguage(homeLanguage);
  }, [restart, homeLanguage, setLanguage]);

  const refused = (error: unknown) => {
    if (isSecretProblem(error)) onSecretRefused();
  };

  const checkIn = useMutation({
    mutationFn: (input: KioskCheckInInput) => checkInAtKiosk(secret, input),
    onMutate: () => setEntryProblem(null),
    onSuccess: (result) => setScreen({ kind: 'result', result }),
    onError: (error, input) => {
      refused(error);
      if (error instanceof ApiError && error.status === 404) {
        setScreen({ kind: 'not_found', message: error.message, plate: input.plate ?? '' });
        return;
      }
      const message = error instanceof ApiError && error.message ? translateMessage(error.message) : errorMessage(error, t('page.checkInFailed'));
      if (screen.kind === 'scan') setScreen({ kind: 'code' });
      setEntryProblem(message);
    },
  });

  const walkIn = useMutation({
    mutationFn: (input: KioskWalkInRequestInput) => requestWalkIn(secret, input),
    onSuccess: () => setScreen({ kind: 'walk_in_sent' }),
    onError: refused,
  });

  // While the truck waits, follow the booking until the dock calls it.
  const waiting = screen.kind === 'result' && screen.result.outcome === 'wait' ? screen.result : null;
  const status = useQuery({
    queryKey: ['kiosk', 'status', waiting?.bookingId],
    queryFn: () => getKioskBookingStatus(secret, waiting!.bookingId),
    enabled: !!waiting,
    refetchInterval: STATUS_POLL_MS,
  });
  useEffect(() => {
    if (!waiting || !status.data) return;
    const s = status.data;
    if (s.status === 'in_progress' || s.status === 'overstay') {
      setScreen({ kind: 'result', result: { ...waiting, outcome: 'go_to_bay', bayName: s.bayName } });
    } else if (s.status === 'checked_in' && s.position !== null && s.position !== waiting.position) {
      setScreen({ kind: 'result', result: { ...waiting, position: s.position } });
    }
  }, [status.data, waiting]);

  // Back to the start after a while without a touch.
  const idleSeconds = waiting
    ? WAITING_IDLE_SECONDS
    : screen.kind === 'start' && language !== homeLanguage
      ? START_LANGUAGE_IDLE_SECONDS
      : IDLE_SECONDS[screen.kind];
  useEffect(() => {
    if (idleSeconds === null) return;
    let timer = window.setTimeout(finish, idleSeconds * 1000);
    const touch = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(finish, idleSeconds * 1000);
    };
    const events = ['pointerdown', 'keydown'] as const;
    events.forEach((name) => window.addEventListener(name, touch));
    return () => {
      window.clearTimeout(timer);
      events.forEach((name) => window.removeEventListener(name, touch));
    };
  }, [idleSeconds, screen.kind, finish]);

  switch (screen.kind) {
    case 'start':
      return <StartScreen onScan={() => setScreen({ kind: 'scan' })} onCode={() => setScreen({ kind: 'code' })} onPlate={() => setScreen({ kind: 'plate' })} />;
    case 'scan':
      return checkIn.isPending ? (
        <Group justify="center" p="xl">
          <Loader size="xl" aria-label={t('page.checkingIn')} />
        </Group>
      ) : (
        <ScanScreen onCode={(code) => checkIn.mutate({ code })} onBack={restart} />
      );
    case 'code':
    case 'plate':
      return (
        <EntryScreen
          key={screen.kind}
          kind={screen.kind}
          isBusy={checkIn.isPending}
          problem={entryProblem}
          onSubmit={(value) => checkIn.mutate(screen.kind === 'code' ? { code: value } : { plate: value })}
          onBack={restart}
        />
      );
    case 'result':
      return (
        <div aria-live="polite">
          <ResultScreen key={`${screen.result.outcome}-${'position' in screen.result ? screen.result.position : ''}`} result={screen.result} timeZone={timeZone} onDone={finish} />
        </div>
      );
    case 'not_found':
      return <NotFoundScreen message={screen.message} onWalkIn={() => setScreen({ kind: 'walk_in', plate: screen.plate })} onRetry={restart} />;
    case 'walk_in':
      return (
        <WalkInScreen
          initialPlate={screen.plate}
          isBusy={walkIn.isPending}
          problem={walkIn.error ? errorMessage(walkIn.error, t('page.walkInFailed')) : null}
          onSubmit={(input) => walkIn.mutate(input)}
          onBack={restart}
        />
      );
    case 'walk_in_sent':
      return <WalkInSentScreen onDone={finish} />;
  }
}
