// Reading a number plate from a picture on the server (ANPR camera webhooks that send an image,
// uploads): sharp decodes and shrinks it to greyscale, domain/plate-image.ts finds the rows of
// characters and draws each clean, and Tesseract (tesseract.js in a worker thread, English LSTM
// data from node_modules, nothing downloaded) reads each row as one line. A read counts only if
// it looks like a plate (domain/plate-match.ts isPlausiblePlate): Tesseract's confidence does not.
//
// One Tesseract worker, started on the first picture (~1 s) and reused; pictures wait in a small
// queue and are read one at a time; beyond MAX_WAITING the answer is 'busy'. The worker stops
// after IDLE_STOP_MS without work and does not keep the process alive meanwhile. Call
// closePlateOcr() on shutdown (and in tests).
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { MAX_WORKING_SIDE, type GreyImage } from '../../domain/plate-image';
import type { PassRead } from '../../domain/plate-layouts';
import { readPlateRows, symbolConfidence } from '../../domain/plate-reading';
import { OCR_LANG_DATA, OCR_LANGUAGE, OCR_PARAMETERS, type PlateOcrResult } from '../../domain/plate-ocr-config';

export type { PlateOcrResult } from '../../domain/plate-ocr-config';

/** Pictures waiting or being read at once; more are answered 'busy'. */
export const MAX_WAITING = 8;
/** The worker stops after this long without a picture (it holds ~100 MB). */
export const IDLE_STOP_MS = 5 * 60_000;
/** A read taking longer than this means the worker is stuck: it is stopped and restarted. */
const READ_TIMEOUT_MS = 30_000;
/** Starting the worker (reading the core and data from node_modules) takes about a second. */
const START_TIMEOUT_MS = 60_000;
/** Larger pictures are refused before decoding (a small file can claim huge dimensions). */
const MAX_INPUT_PIXELS = 50_000_000;
/** Raster formats sharp decodes that a camera or phone sends; SVG, PDF and the like are not photos. */
const PHOTO_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif', 'avif']);

const require = createRequire(import.meta.url);
const langPath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), OCR_LANG_DATA);

/** The tesseract.js worker object also carries the worker thread it runs in (not in its types). */
type OcrWorker = Tesseract.Worker & { worker?: ThreadWorker | null };

let engine: Promise<OcrWorker> | null = null;
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;
let idleTimer: NodeJS.Timeout | null = null;

function startEngine(): Promise<OcrWorker> {
  const creating = Tesseract.createWorker(OCR_LANGUAGE, Tesseract.OEM.LSTM_ONLY, {
    langPath,
    cacheMethod: 'none',
    gzip: true,
    // Without a handler, a failed job throws inside tesseract.js's message listener (a crash).
    errorHandler: () => undefined,
  }) as Promise<OcrWorker>;
  const ready = creating.then(async (worker) => {
    await worker.setParameters(OCR_PARAMETERS as unknown as Partial<Tesseract.WorkerParams>);
    // A thread that dies takes its jobs with it: forget it so the next picture starts a new one.
    worker.worker?.once('exit', () => {
      if (engine === started) engine = null;
    });
    return worker;
  });
  // tesseract.js may never answer if its core cannot start: give up, and stop it if it ever does.
  const started = withTimeout(ready, START_TIMEOUT_MS);
  started.catch(() => {
    if (engine === started) engine = null;
    void creating.then((worker) => worker.terminate()).catch(() => undefined);
  });
  return started;
}

async function stopEngine(): Promise<void> {
  const current = engine;
  engine = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (current) await current.then((worker) => worker.terminate()).catch(() => undefined);
}

/** Keeps the worker thread from holding the process open while nothing is waiting. */
function setThreadHeld(worker: OcrWorker, held: boolean): void {
  if (held) worker.worker?.ref();
  else worker.worker?.unref();
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Plate OCR took longer than ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

type Decoded = { ok: true; grey: GreyImage } | { ok: false; reason: 'not_an_image' | 'unreadable' };

/** The picture as greyscale, upright (EXIF), transparency on white, longest side ≤ MAX_WORKING_SIDE. */
async function decode(image: Buffer): Promise<Decoded> {
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(image, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: 'not_an_image' };
  }
  if (!metadata.format || !PHOTO_FORMATS.has(metadata.format) || !metadata.width || !metadata.height) {
    return { ok: false, reason: 'not_an_image' };
  }
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) return { ok: false, reason: 'unreadable' };
  try {
    const { data, info } = await sharp(image, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: MAX_WORKING_SIDE, height: MAX_WORKING_SIDE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) return { ok: false, reason: 'not_an_image' };
    return { ok: true, grey: { width: info.width, height: info.height, data } };
  } catch {
    // Claims to be a picture but does not decode (truncated beyond repair, corrupt).
    return { ok: false, reason: 'not_an_image' };
  }
}

async function recognizeRow(worker: OcrWorker, row: GreyImage): Promise<PassRead> {
  const png = await sharp(row.data, { raw: { width: row.width, height: row.height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
  try {
    const { data } = await withTimeout(worker.recognize(png, {}, { text: true, blocks: true }), READ_TIMEOUT_MS);
    return { text: data.text.replace(/\s+/g, ' ').trim(), confidence: symbolConfidence(data.blocks) };
  } catch (error) {
    await stopEngine();
    throw error;
  }
}

/**
 * Each row (longest first) read in several passes and the reads pooled: domain/plate-reading.ts,
 * as the browser does. The worker starts on the first row (a picture without one never starts it).
 */
async function readRows(grey: GreyImage): Promise<PlateOcrResult> {
  let worker: OcrWorker | null = null;
  try {
    const { plate, candidates } = await readPlateRows(grey, async (row) => {
      if (!worker) {
        if (!engine) engine = startEngine();
        worker = await engine;
        setThreadHeld(worker, true);
      }
      return recognizeRow(worker, row);
    });
    return plate !== null ? { plate, candidates } : { plate: null, candidates: [], reason: 'unreadable' };
  } finally {
    if (worker) setThreadHeld(worker, false);
  }
}

function scheduleIdleStop(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (waiting === 0) void stopEngine();
  }, IDLE_STOP_MS);
  idleTimer.unref();
}

/**
 * Reads the number plate in a picture (JPEG, PNG, WebP, GIF, TIFF, HEIF/AVIF): the likeliest
 * plate and every plausible read, or a reason — never a throw for a bad picture. Throws only when
 * the OCR itself fails (a server fault; the worker is restarted for the next picture).
 */
export async function readPlate(image: Buffer): Promise<PlateOcrResult> {
  if (waiting >= MAX_WAITING) return { plate: null, candidates: [], reason: 'busy' };
  waiting++;
  const job = queue.then(async () => {
    const decoded = await decode(image);
    if (!decoded.ok) return { plate: null, candidates: [], reason: decoded.reason } satisfies PlateOcrResult;
    return readRows(decoded.grey);
  });
  queue = job.catch(() => undefined);
  try {
    return await job;
  } finally {
    waiting--;
    scheduleIdleStop();
  }
}

/** Starts the worker ahead of the first picture (optional: readPlate starts it when needed). */
export async function warmUpPlateOcr(): Promise<void> {
  if (!engine) engine = startEngine();
  const worker = await engine;
  setThreadHeld(worker, false);
}

/** Stops the worker (shutdown, tests). A later readPlate starts a new one. */
export async function closePlateOcr(): Promise<void> {
  await queue;
  await stopEngine();
}
