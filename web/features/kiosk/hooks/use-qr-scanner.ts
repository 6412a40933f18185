import { useEffect, useRef, useState } from 'react';

// The tablet's camera reading QR codes: frames drawn to a canvas a few times a second and decoded
// with jsQR (loaded only when the camera starts). The first code read is handed over once; the
// camera is released when scanning stops or the screen closes.

const SCAN_EVERY_MS = 200;
/** Frames are decoded at this width at most (phones' screens held up to the camera are large). */
const MAX_WIDTH = 640;

export type QrScanner = { videoRef: React.RefObject<HTMLVideoElement | null>; error: string | null; isStarting: boolean };

function cameraError(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'The camera is not allowed on this tablet. Type your code or your plate instead.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'This tablet has no camera. Type your code or your plate instead.';
  return 'The camera could not be started. Type your code or your plate instead.';
}

export function useQrScanner(isActive: boolean, onCode: (text: string) => void): QrScanner {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;
  const [error, setError] = useState<string | null>(null);
  const [isStarting, setStarting] = useState(false);

  useEffect(() => {
    if (!isActive) return;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let isStopped = false;
    setError(null);
    setStarting(true);
    const video = videoRef.current;
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });

    void (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('No camera', 'NotFoundError');
        const [media, { default: jsQR }] = await Promise.all([
          navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: { ideal: 'user' }, width: { ideal: 1280 }, height: { ideal: 720 } } }),
          import('jsqr'),
        ]);
        stream = media;
        if (isStopped) {
          media.getTracks().forEach((track) => track.stop());
          return;
        }
        if (!video || !context) return;
        video.srcObject = media;
        await video.play().catch(() => undefined);
        setStarting(false);
        const scan = () => {
          if (isStopped) return;
          if (video.videoWidth > 0) {
            const scale = Math.min(1, MAX_WIDTH / video.videoWidth);
            canvas.width = Math.round(video.videoWidth * scale);
            canvas.height = Math.round(video.videoHeight * scale);
            context.drawImage(video, 0, 0, canvas.width, canvas.height);
            const frame = context.getImageData(0, 0, canvas.width, canvas.height);
            const code = jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'attemptBoth' });
            if (code?.data) {
              isStopped = true;
              onCodeRef.current(code.data);
              return;
            }
          }
          timer = window.setTimeout(scan, SCAN_EVERY_MS);
        };
        scan();
      } catch (cause) {
        if (!isStopped) {
          setStarting(false);
          setError(cameraError(cause));
        }
      }
    })();

    return () => {
      isStopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
      if (video) video.srcObject = null;
    };
  }, [isActive]);

  return { videoRef, error, isStarting };
}
