import { Alert, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertTriangle, IconCamera, IconKeyboard, IconPhoto, IconScan } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { GateBooking } from '../../../../domain/gate';
import type { PlateCandidateDto, PlateReadResult, PlateReadSource } from '../../../../domain/plate-reads';
import { errorMessage } from '../../../lib/api-client';
import { closePlateOcr } from '../../../lib/plate-ocr';
import { toast } from '../../../lib/toast';
import { useAuth } from '../../auth/hooks/use-auth';
import { gateKey, getGateOverview } from '../../dock-gate/api/gate-api';
import { useDecidePlateRead } from '../api/decide-plate-read';
import { useMoveVehicle } from '../api/move-vehicle';
import { useRecordPlateRead } from '../api/record-plate-read';
import { useUploadPlatePhoto } from '../api/upload-plate-photo';
import { currentCandidate, type KnownBooking } from '../utils/current-candidate';
import { preparePlatePhoto } from '../utils/prepare-photo';
import { CameraReader, type ReadMode } from './camera-reader';
import type { MoveKind } from './candidate-card';
import { PhotoReader } from './photo-reader';
import { ReadResult } from './read-result';
import { TypedReader } from './typed-reader';
import { UnresolvedReads } from './unresolved-reads';
import { NOTICE_STYLES } from './notice-styles';

type Props = {
  orgId: string;
  siteId: string;
  siteName: string;
  /** The site's zone if known before the gate answers (the org area's site list has it). */
  timeZone?: string;
  /** Where the gate calls vehicles to bays, in this area (the dock dashboard), if any. */
  dashboardPath?: string;
  /** A site picker (the org area), shown under the title. */
  sitePicker?: ReactNode;
};

const MOVED: Record<MoveKind, string> = { 'check-in': 'Checked in', 'check-out': 'Checked out' };

/**
 * The plate scanner of one site (/dockmaster/scan and /org/ops/scan): read a plate by the device
 * camera, a photo or typing; see the site's vehicles it matches and check one in or out with one
 * tap; resolve the reads nothing matched. Live: plate_read events refresh the reads, booking
 * events the gate (and so the candidates' state).
 */
export function PlateScanner({ orgId, siteId, siteName, timeZone: knownZone, dashboardPath, sitePicker }: Props) {
  const { role } = useAuth();
  // The server refuses security staff; unknown roles see no buttons until the role is known.
  const canResolve = role === 'org_admin' || role === 'dockmaster';
  const [mode, setMode] = useState<ReadMode>('camera');
  const [result, setResult] = useState<PlateReadResult | null>(null);
  const [moved, setMoved] = useState<Record<string, KnownBooking>>({});
  const [busyBookingId, setBusyBookingId] = useState<string | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  const gate = useQuery({ queryKey: gateKey(orgId, siteId), queryFn: () => getGateOverview(siteId), refetchInterval: 60_000 });
  const knownTimeZone = gate.data?.timeZone ?? knownZone;
  const timeZone = knownTimeZone ?? 'UTC';
  const todays = useMemo<GateBooking[]>(() => {
    const seen = new Set<string>();
    return [...(gate.data?.live ?? []), ...(gate.data?.upcoming ?? [])].filter((b) => !seen.has(b.id) && seen.add(b.id));
  }, [gate.data]);
  const byId = useMemo(() => new Map(todays.map((b) => [b.id, b])), [todays]);

  const record = useRecordPlateRead(orgId, siteId);
  const upload = useUploadPlatePhoto(orgId, siteId);
  const move = useMoveVehicle(orgId, siteId);
  const decide = useDecidePlateRead(orgId, siteId);

  // Leaving the screen stops the browser's plate reader (the camera is released by its own panel).
  useEffect(() => () => void closePlateOcr(), []);

  const show = useCallback((answer: PlateReadResult) => {
    setResult(answer);
    setMoveError(null);
    // On a phone the answer is below the inputs: bring it into view.
    window.requestAnimationFrame(() => resultRef.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' }));
  }, []);

  const sendPlate = useCallback(
    async (plate: string, source: Exclude<PlateReadSource, 'webhook' | 'photo'>, confidence?: number | null) => {
      show(await record.mutateAsync({ plate, source, ...(confidence !== null && confidence !== undefined ? { confidence } : {}) }));
    },
    [record, show],
  );
  const sendCameraPlate = useCallback((plate: string, confidence: number | null) => sendPlate(plate, 'camera', confidence), [sendPlate]);

  const sendPhoto = async (file: File) => {
    const { photo, fileName } = await preparePlatePhoto(file);
    show(await upload.mutateAsync({ photo, fileName }));
  };

  const candidates = result ? result.candidates.map((c) => currentCandidate(c, byId.get(c.bookingId), moved[c.bookingId])) : [];

  const onMove = async (candidate: PlateCandidateDto, kind: MoveKind) => {
    setBusyBookingId(candidate.bookingId);
    setMoveError(null);
    try {
      const answer = await move.mutateAsync({ bookingId: candidate.bookingId, kind, version: candidate.version });
      setMoved((known) => ({ ...known, [candidate.bookingId]: { status: answer.booking.status, version: answer.booking.version } }));
      const dwell = answer.dwellMinutes !== null ? ` after ${answer.dwellMinutes} min on site` : '';
      toast.success(MOVED[kind], `${answer.booking.vehicleRegistration} · ${answer.booking.tsrNumber}${dwell}`);
      // A read nothing matched surely is settled by acting on one of its candidates: link it (dock masters and admins).
      if (result && canResolve && (result.status === 'unmatched' || result.status === 'ambiguous')) {
        decide.mutate({ readId: result.id, kind: 'resolve', bookingId: candidate.bookingId });
      }
    } catch (error) {
      setMoveError(errorMessage(error, 'The server refused the move.'));
    } finally {
      setBusyBookingId(null);
    }
  };

  const isSending = record.isPending || upload.isPending;

  return (
    <Stack gap="md" maw={1400} mx="auto" w="100%" style={{ minWidth: 0 }}>
      <div>
        <Title order={1}>Plate Scanner</Title>
        <Text c="dark.4" size="sm">
          {siteName} · read a plate by camera, photo or typing{knownTimeZone ? `; times in ${knownTimeZone}` : ''}
        </Text>
      </div>
      {sitePicker}

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="read-plate-title">
          <Title order={2} size="h3" id="read-plate-title" mb="sm">
            Read a plate
          </Title>
          <Tabs value={mode} onChange={(value) => value && setMode(value as ReadMode)} keepMounted={false} styles={{ tab: { minHeight: 48 } }}>
            <Tabs.List mb="md">
              <Tabs.Tab value="camera" leftSection={<IconCamera size={18} aria-hidden />}>
                Camera
              </Tabs.Tab>
              <Tabs.Tab value="photo" leftSection={<IconPhoto size={18} aria-hidden />}>
                Photo
              </Tabs.Tab>
              <Tabs.Tab value="typed" leftSection={<IconKeyboard size={18} aria-hidden />}>
                Type
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="camera">
              <CameraReader isSending={isSending} onPlate={sendCameraPlate} onUseMode={setMode} />
            </Tabs.Panel>
            <Tabs.Panel value="photo">
              <PhotoReader isSending={upload.isPending} onPhoto={sendPhoto} />
            </Tabs.Panel>
            <Tabs.Panel value="typed">
              <TypedReader isSending={record.isPending} onPlate={(plate) => sendPlate(plate, 'typed')} />
            </Tabs.Panel>
          </Tabs>
        </Paper>

        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="read-result-title" ref={resultRef} style={{ scrollMarginTop: 80 }}>
          <Title order={2} size="h3" id="read-result-title" mb="sm">
            Result
          </Title>
          {result ? (
            <Stack gap="sm">
              {moveError ? (
                <Alert styles={NOTICE_STYLES} color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="Not done" data-testid="move-error">
                  {moveError} Nothing was changed.
                </Alert>
              ) : null}
              <ReadResult
                result={result}
                candidates={candidates}
                timeZone={timeZone}
                canResolve={canResolve}
                busyBookingId={busyBookingId}
                onMove={(c, kind) => void onMove(c, kind)}
                dashboardPath={dashboardPath}
              />
            </Stack>
          ) : (
            <Group gap="sm" wrap="nowrap" c="dark.4" py="lg">
              <IconScan size={28} aria-hidden />
              <Text size="sm">Read a plate to see the vehicle it belongs to, with a one-tap Check In or Check Out.</Text>
            </Group>
          )}
        </Paper>
      </SimpleGrid>

      <UnresolvedReads orgId={orgId} siteId={siteId} timeZone={timeZone} bookings={todays} canResolve={canResolve} />
    </Stack>
  );
}
