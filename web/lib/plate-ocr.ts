// Reading a number plate in the browser (the scan screen: a camera frame or an uploaded photo),
// offline: tesseract.js runs in a Web Worker spawned from our own server (server/ocr/ocr-assets.ts
// serves the worker, core and trained data; nothing from a CDN). The picture is drawn on a canvas,
// shrunk and turned grey, then read exactly as on the server (domain/plate-reading.ts: the rows of
// characters found, turned level and cleaned, each read in several passes, the reads pooled and
// fitted to the plate layouts). Match the candidates with matchPlate.
//
// The worker (~4 MB of script and 3 MB of data, cached by the browser for a year) starts on the
// first read or on preloadPlateOcr(); call closePlateOcr() when the scan screen closes.
import Tesseract from 'tesseract.js';
import { greyFromRgba, rgbaFromGrey, workingScale, type GreyImage } from '../../domain/plate-image';
import {
  OCR_CORE_PATH,
  OCR_LANG_PATH,
  OCR_LANGUAGE,
  OCR_PARAMETERS,
  OCR_WORKER_PATH,
  type PlateOcrResult,
} from '../../domain/plate-ocr-config';
import { readPlateRows, symbolConfidence } from '../../domain/plate-reading';

export { OCR_CORE_PATH, OCR_LANG_PATH, OCR_WORKER_PATH } from '../../domain/plate-ocr-config';
export type { PlateOcrResult } from '../../domain/plate-ocr-config';

/**
 * A read in the browser: the shared result and a confidence (0–1): the best of the reads giving
 * the plate, each the median of Tesseract's per-character confidences (its text confidence is 0
 * under our whitelist); null when there is none. Sent with the read for the record; it decides
 * nothing (decision 010: validate by plate pattern).
 */
export type BrowserPlateOcrResult = PlateOcrResult & { confidence: number | null };

/** What can be read: an uploaded file, a camera <video>, an <img>, a canvas or a decoded bitmap. */
export type PlateImageSource = Blob | HTMLVideoElement | HTMLImageElement | HTMLCanvasElement | ImageBitmap;

/** Loading the worker, core and data (~4.5 MB the first time, on a phone at the gate) and starting. */
const START_TIMEOUT_MS = 90_000;
/** One row; far longer means the worker is stuck. */
const READ_TIMEOUT_MS = 30_000;
const NONE = { plate: null, candidates: [] as string[], confidence: null };

/**
 * The OCR could not start or got stuck. tesseract.js does not report a worker whose core fails
 * to load (a blocked or missing file): it just never answers, hence the time limits.
 */
export class PlateOcrUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlateOcrUnavailableError';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new PlateOcrUnavailableError(message)), ms);
    promise.then(
      (value) => {
        window.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        window.clearTimeout(timer);
        reject(new PlateOcrUnavailableError(`${message} (${String(error)})`));
      },
    );
  });
}

let engine: Promise<Tesseract.Worker> | null = null;
let isReading = false;

const absolute = (path: string) => new URL(path, window.location.origin).href;

function startEngine(): Promise<Tesseract.Worker> {
  const starting = (async () => {
    const worker = await Tesseract.createWorker(OCR_LANGUAGE, Tesseract.OEM.LSTM_ONLY, {
      // Spawned from its URL (not a blob: wrapper), so it runs under the policy its script is
      // served with, which allows WebAssembly; the paths are absolute for the worker's sake.
      workerBlobURL: false,
      workerPath: absolute(OCR_WORKER_PATH),
      corePath: absolute(OCR_CORE_PATH),
      langPath: absolute(OCR_LANG_PATH),
      // The browser's HTTP cache keeps the files; tesseract.js's own IndexedDB copy is not needed.
      cacheMethod: 'none',
      gzip: true,
      errorHandler: () => undefined,
    });
    await worker.setParameters(OCR_PARAMETERS as unknown as Partial<Tesseract.WorkerParams>);
    return worker;
  })();
  const started = withTimeout(starting, START_TIMEOUT_MS, 'Plate reading could not start: its files did not load');
  started.catch(() => {
    if (engine === started) engine = null;
  });
  return started;
}

/** Starts the OCR worker ahead of the first read (when the scan screen opens). */
export async function preloadPlateOcr(): Promise<void> {
  if (!engine) engine = startEngine();
  await engine;
}

/** Stops the OCR worker (when the scan screen closes); a later read starts it again. */
export async function closePlateOcr(): Promise<void> {
  const current = engine;
  engine = null;
  if (current) await current.then((worker) => worker.terminate()).catch(() => undefined);
}

type Drawable = Exclude<PlateImageSource, Blob>;

function sizeOf(source: Drawable): { width: number; height: number } {
  if (source instanceof HTMLVideoElement) return { width: source.videoWidth, height: source.videoHeight };
  if (source instanceof HTMLImageElement) return { width: source.naturalWidth, height: source.naturalHeight };
  return { width: source.width, height: source.height };
}

function makeCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

/** The picture as greyscale, shrunk to the working size; null if it has no pixels yet. */
function greyOf(source: Drawable): GreyImage | null {
  const { width, height } = sizeOf(source);
  if (!width || !height) return null;
  const scale = workingScale(width, height);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const context = makeCanvas(w, h).getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, w, h);
  return greyFromRgba(context.getImageData(0, 0, w, h).data, w, h);
}

function canvasOf(image: GreyImage): HTMLCanvasElement {
  const canvas = makeCanvas(image.width, image.height);
  canvas.getContext('2d')!.putImageData(new ImageData(rgbaFromGrey(image), image.width, image.height), 0, 0);
  return canvas;
}

async function decode(source: PlateImageSource): Promise<{ grey: GreyImage | null } | 'not_an_image'> {
  if (!(source instanceof Blob)) return { grey: greyOf(source) };
  // Photos only: an SVG is a drawing (and createImageBitmap may not take it anyway).
  if (source.type === 'image/svg+xml') return 'not_an_image';
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(source, { imageOrientation: 'from-image' });
  } catch {
    return 'not_an_image';
  }
  try {
    return { grey: greyOf(bitmap) };
  } finally {
    bitmap.close();
  }
}

/**
 * Reads the number plate in a picture: the likeliest plate and every plausible read, or a reason
 * ('not_an_image', 'unreadable', or 'busy' while the previous read is still running — a camera
 * loop just skips that frame). Never throws for a bad picture; throws PlateOcrUnavailableError
 * if the OCR cannot start (its files did not load) or gets stuck (a later read starts afresh).
 * The rows, passes and choice are the server's (domain/plate-reading.ts): both read alike.
 */
export async function readPlateInBrowser(source: PlateImageSource): Promise<BrowserPlateOcrResult> {
  if (isReading) return { ...NONE, reason: 'busy' };
  isReading = true;
  try {
    const decoded = await decode(source);
    if (decoded === 'not_an_image') return { ...NONE, reason: 'not_an_image' };
    if (!decoded.grey) return { ...NONE, reason: 'unreadable' };
    let worker: Tesseract.Worker | null = null;
    const read = await readPlateRows(decoded.grey, async (row) => {
      // Started on the first row: a picture without one never loads the OCR.
      if (!engine) engine = startEngine();
      worker ??= await engine;
      try {
        const { data } = await withTimeout(worker.recognize(canvasOf(row), {}, { text: true, blocks: true }), READ_TIMEOUT_MS, 'Plate reading got stuck');
        return { text: data.text.replace(/\s+/g, ' ').trim(), confidence: symbolConfidence(data.blocks) };
      } catch (error) {
        await closePlateOcr();
        throw error;
      }
    });
    if (read.plate === null) return { ...NONE, reason: 'unreadable' };
    // The best confidence of the reads giving the plate (median of their characters'), 0–1.
    const confidence = read.confidence !== null && read.confidence > 0 ? Math.min(1, Math.round(read.confidence) / 100) : null;
    return { plate: read.plate, candidates: read.candidates, confidence };
  } finally {
    isReading = false;
  }
}
