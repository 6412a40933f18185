import { useCallback, useEffect, useRef, useState } from 'react';

// The device camera for the scanner: the rear camera on phones and tablets (facingMode
// 'environment'), shown in a <video>, released on stop, when the screen closes, or when the
// camera goes away. Every failure becomes a message that says what to do instead.

export type CameraStatus = 'off' | 'starting' | 'on';

const OTHER_MODES = 'Upload a photo or type the plate instead.';
const OR_OTHER_MODES = 'upload a photo or type the plate.';

/** What to tell the person at the gate when the camera cannot start. */
export function cameraErrorMessage(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return `Camera access was denied. Allow the camera for this site in the browser's settings and try again, or ${OR_OTHER_MODES}`;
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return `No camera was found on this device. ${OTHER_MODES}`;
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return `The camera could not be started: another app may be using it. Close that app and try again, or ${OR_OTHER_MODES}`;
    default:
      return `The camera could not be started. ${OTHER_MODES}`;
  }
}

function stopStream(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}

export function useCamera() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  /** Bumped by every start and stop: a start that resolves after a newer call gives its stream back. */
  const attemptRef = useRef(0);
  const [status, setStatus] = useState<CameraStatus>('off');
  const [error, setError] = useState<string | null>(null);

  const release = useCallback(() => {
    attemptRef.current += 1;
    stopStream(streamRef.current);
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
  }, []);

  const stop = useCallback(() => {
    release();
    setStatus('off');
  }, [release]);

  const start = useCallback(async () => {
    release();
    const attempt = attemptRef.current;
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setError(
        window.isSecureContext
          ? `This browser cannot use a camera. ${OTHER_MODES}`
          : `The camera needs a secure (HTTPS) connection to this site. ${OTHER_MODES}`,
      );
      return;
    }
    setStatus('starting');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
      });
    } catch (cause) {
      if (attempt !== attemptRef.current) return;
      setStatus('off');
      setError(cameraErrorMessage(cause));
      return;
    }
    // Stopped, restarted or left while the browser was asking: give the camera back at once.
    if (attempt !== attemptRef.current) {
      stopStream(stream);
      return;
    }
    streamRef.current = stream;
    stream.getVideoTracks()[0]?.addEventListener('ended', () => {
      if (streamRef.current !== stream) return;
      release();
      setStatus('off');
      setError(`The camera stopped (it was unplugged or taken by another app). Start it again, or ${OR_OTHER_MODES}`);
    });
    const video = videoRef.current;
    if (video) {
      video.srcObject = stream;
      await video.play().catch(() => undefined);
    }
    if (attempt === attemptRef.current) setStatus('on');
  }, [release]);

  // Leaving the screen (or the camera tab) releases the camera.
  useEffect(() => release, [release]);

  return { videoRef, status, error, start, stop };
}
