import { Alert, Box, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { IconCamera, IconKeyboard, IconPhoto, IconPlayerStop, IconScan } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { canonicalPlate, PLATE_DEDUP_WINDOW_MS } from '../../../../domain/plate-match';
import { errorMessage } from '../../../lib/api-client';
import { PlateOcrUnavailableError, preloadPlateOcr, readPlateInBrowser } from '../../../lib/plate-ocr';
import { useCamera } from '../hooks/use-camera';
import { NOTICE_STYLES } from './notice-styles';

export type ReadMode = 'camera' | 'photo' | 'typed';

type Props = {
  isSending: boolean;
  /** A plate read in a frame: send it (source 'camera', with Tesseract's confidence). */
  onPlate: (plate: string, confidence: number | null) => Promise<unknown>;
  onUseMode: (mode: Exclude<ReadMode, 'camera'>) => void;
};

/** How often "Read automatically" looks at a frame (a read takes 30–150 ms once started). */
const AUTO_READ_MS = 1_200;
const UNREADABLE = 'No number plate could be read in this picture. Hold the camera steady with the plate inside the frame, closer if it is small, and try again.';
const OCR_UNAVAILABLE = 'Plate reading could not start on this device (its files did not load). Upload a photo or type the plate instead.';

/**
 * The device camera: start it (the rear camera on phones), point it at the plate, and read the
 * frame in the browser (web/lib/plate-ocr.ts, offline) — on a tap, or every second or so with
 * "Read automatically". The camera is released on Stop and when this leaves the screen.
 */
export function CameraReader({ isSending, onPlate, onUseMode }: Props) {
  const camera = useCamera();
  const [isReading, setIsReading] = useState(false);
  const [isAuto, setIsAuto] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [ocrError, setOcrError] = useState<string | null>(null);
  const [isPreparing, setIsPreparing] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const lastSent = useRef<{ canonical: string; at: number } | null>(null);
  const isMounted = useRef(true);
  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
    };
  }, []);

  const start = async () => {
    setNote(null);
    setOcrError(null);
    await camera.start();
    // The reader's files load while the person aims (~4.5 MB the first time, cached after).
    setIsPreparing(true);
    preloadPlateOcr()
      .catch(() => {
        if (isMounted.current) setOcrError(OCR_UNAVAILABLE);
      })
      .finally(() => {
        if (isMounted.current) setIsPreparing(false);
      });
  };

  const stop = () => {
    setIsAuto(false);
    setNote(null);
    camera.stop();
  };

  const read = useCallback(
    async (isAutomatic: boolean) => {
      const video = camera.videoRef.current;
      if (!video || camera.status !== 'on') return;
      setIsReading(true);
      if (!isAutomatic) setNote('Reading the plate…');
      try {
        const result = await readPlateInBrowser(video);
        if (!isMounted.current) return;
        if (result.reason === 'busy') return;
        if (!result.plate) {
          setNote(isAutomatic ? 'Looking for a plate…' : UNREADABLE);
          return;
        }
        const canonical = canonicalPlate(result.plate);
        const previous = lastSent.current;
        // Automatic reads of the plate just sent are the same event: the server would fold them anyway.
        if (isAutomatic && previous && previous.canonical === canonical && Date.now() - previous.at < PLATE_DEDUP_WINDOW_MS) return;
        lastSent.current = { canonical, at: Date.now() };
        setNote(`Read ${result.plate}.`);
        setSendError(null);
        try {
          await onPlate(result.plate, result.confidence);
        } catch (error) {
          // Read, but the server refused it or could not be reached: say so; the next read tries again.
          lastSent.current = null;
          if (isMounted.current) setSendError(errorMessage(error, 'The plate could not be sent. Try again.'));
        }
      } catch (error) {
        if (!isMounted.current) return;
        setIsAuto(false);
        setNote(null);
        setOcrError(error instanceof PlateOcrUnavailableError ? OCR_UNAVAILABLE : 'The picture could not be read. Try again, or upload a photo or type the plate.');
      } finally {
        if (isMounted.current) setIsReading(false);
      }
    },
    [camera.status, camera.videoRef, onPlate],
  );

  // "Read automatically": a frame every AUTO_READ_MS while the camera is on and nothing is in flight.
  const isBusy = isReading || isSending;
  useEffect(() => {
    if (!isAuto || camera.status !== 'on' || isBusy) return;
    const timer = window.setTimeout(() => void read(true), AUTO_READ_MS);
    return () => window.clearTimeout(timer);
  }, [isAuto, camera.status, isBusy, read]);

  const isOn = camera.status === 'on';
  const error = camera.error ?? ocrError;

  return (
    <Stack gap="sm">
      <Box
        pos="relative"
        style={{ background: 'var(--mantine-color-dark-8)', borderRadius: 8, overflow: 'hidden', aspectRatio: '4 / 3', maxHeight: '55vh', width: '100%' }}
      >
        <video
          ref={camera.videoRef}
          muted
          playsInline
          aria-label="Camera view"
          data-testid="camera-video"
          style={{ width: '100%', height: '100%', objectFit: 'contain', display: isOn ? 'block' : 'none' }}
        />
        {isOn ? (
          // Where to put the plate: a frame in the middle of the picture.
          <Box
            aria-hidden
            pos="absolute"
            style={{ left: '15%', right: '15%', top: '38%', bottom: '38%', border: '3px dashed rgba(255,255,255,0.85)', borderRadius: 8, pointerEvents: 'none' }}
          />
        ) : (
          <Stack align="center" justify="center" h="100%" gap={4} p="md">
            <IconCamera size={40} color="white" aria-hidden />
            <Text c="white" ta="center" size="sm">
              {camera.status === 'starting' ? 'Starting the camera…' : 'The camera is off.'}
            </Text>
          </Stack>
        )}
      </Box>

      <Group gap="sm" wrap="wrap">
        {isOn ? (
          <>
            <Button size="lg" leftSection={<IconScan size={20} aria-hidden />} onClick={() => void read(false)} loading={isReading && !isAuto} disabled={isBusy || isAuto}>
              Read plate
            </Button>
            <Button size="lg" variant="default" leftSection={<IconPlayerStop size={20} aria-hidden />} onClick={stop}>
              Stop camera
            </Button>
          </>
        ) : (
          <Button size="lg" leftSection={<IconCamera size={20} aria-hidden />} onClick={() => void start()} loading={camera.status === 'starting'}>
            Start camera
          </Button>
        )}
      </Group>
      {isOn ? (
        <Switch
          size="lg"
          label="Read automatically"
          description="Looks for a plate about once a second and sends each new one."
          checked={isAuto}
          onChange={(event) => setIsAuto(event.currentTarget.checked)}
        />
      ) : null}

      <Text size="sm" c="dark.4" aria-live="polite" data-testid="camera-note" mih={20}>
        {isOn && isPreparing ? 'Preparing the plate reader…' : (note ?? (isOn ? 'Point the camera at the plate and tap Read plate.' : ''))}
      </Text>

      {sendError ? (
        <Alert styles={NOTICE_STYLES} color="red" variant="light" role="alert" title="Plate not sent" data-testid="camera-send-error">
          {sendError}
        </Alert>
      ) : null}

      {error ? (
        <Alert styles={NOTICE_STYLES} color="orange" variant="light" role="alert" title={camera.error ? 'Camera unavailable' : 'Plate reading unavailable'} data-testid="camera-error">
          <Stack gap="xs">
            <Text size="sm">{error}</Text>
            <Group gap="xs" wrap="wrap">
              <Button size="md" variant="white" color="dark" leftSection={<IconPhoto size={18} aria-hidden />} onClick={() => onUseMode('photo')}>
                Upload a photo
              </Button>
              <Button size="md" variant="white" color="dark" leftSection={<IconKeyboard size={18} aria-hidden />} onClick={() => onUseMode('typed')}>
                Type the plate
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}
