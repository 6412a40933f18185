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
import { findPlateRegions, MAX_WORKING_SIDE, reweigh, type GreyImage, type PlateRegion } from '../../domain/plate-image';
import { choosePlate, isLayoutPlate, settleLookAlikes, type ChosenPlate, type PassRead } from '../../domain/plate-layouts';
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
/** Rows of characters read per picture at most (the longest rows first). */
const MAX_ROWS = 3;

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

/** The passes over one row: the prepared row, then with strokes thinner, thicker, and smaller. */
const PASSES: ReadonlyArray<{ name: string; prepare: (region: PlateRegion) => GreyImage | Promise<GreyImage> }> = [
  { name: 'row', prepare: (region) => region.image },
  { name: 'spaced', prepare: (region) => region.spaced },
  { name: 'thin', prepare: (region) => reweigh(region.image, 'thin') },
  { name: 'thick', prepare: (region) => reweigh(region.image, 'thick') },
  { name: 'spaced-thin', prepare: (region) => reweigh(region.spaced, 'thin') },
  { name: 'small', prepare: (region) => resized(region.image, 0.7) },
  { name: 'large', prepare: (region) => resized(region.image, 1.4) },
];
/** A plate fitting a layout as read, read alike by this many passes, is taken without more passes. */
const AGREEING_PASSES = 2;

async function resized(row: GreyImage, scale: number): Promise<GreyImage> {
  const width = Math.max(1, Math.round(row.width * scale));
  const height = Math.max(1, Math.round(row.height * scale));
  const { data, info } = await sharp(row.data, { raw: { width: row.width, height: row.height, channels: 1 } })
    .resize({ width, height, kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/**
 * The read's confidence: the median of its characters' (0–100). Tesseract's own figure for the
 * text is 0 for most reads with a whitelist, and it gives the first character after a space 0.
 */
function symbolConfidence(page: Tesseract.Page): number {
  const values = (page.blocks ?? [])
    .flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words.flatMap((w) => w.symbols.map((s) => s.confidence)))))
    .sort((a, b) => a - b);
  return values.length === 0 ? 0 : values[Math.floor(values.length / 2)]!;
}

async function recognizeRow(worker: OcrWorker, row: GreyImage): Promise<PassRead> {
  const png = await sharp(row.data, { raw: { width: row.width, height: row.height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
  try {
    const { data } = await withTimeout(worker.recognize(png, {}, { text: true, blocks: true }), READ_TIMEOUT_MS);
    return { text: data.text.replace(/\s+/g, ' ').trim(), confidence: symbolConfidence(data) };
  } catch (error) {
    await stopEngine();
    throw error;
  }
}

/** Rows with characters lower than this (pixels) are looked at again enlarged. */
const SMALL_CHARACTERS = 30;
const ENLARGE = 2.5;

/**
 * A row of small characters found again in its part of the picture enlarged (Lanczos) before the
 * threshold: strokes a pixel or two wide keep their shape (a C and a J at 18 px no longer merge
 * into blobs). The row as found when the enlarged part shows none.
 */
async function enlargedIfSmall(grey: GreyImage, region: PlateRegion): Promise<PlateRegion> {
  const charHeight = (region.box.y1 - region.box.y0 + 1) / 2;
  if (charHeight >= SMALL_CHARACTERS) return region;
  const margin = Math.round(charHeight);
  const left = Math.max(0, region.box.x0 - margin);
  const top = Math.max(0, region.box.y0 - margin);
  const width = Math.min(grey.width, region.box.x1 + margin + 1) - left;
  const height = Math.min(grey.height, region.box.y1 + margin + 1) - top;
  const { data, info } = await sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } })
    .extract({ left, top, width, height })
    .resize({ width: Math.round(width * ENLARGE), height: Math.round(height * ENLARGE), kernel: 'lanczos3' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [again] = findPlateRegions({ width: info.width, height: info.height, data }, { maxRegions: 1 });
  return again && again.characters >= region.characters ? again : region;
}

/**
 * Each row (longest first) is read in several passes (PASSES) and the reads are pooled
 * (domain/plate-layouts.ts choosePlate: agreement, confidence, plate layout). A row whose best
 * plate fits a layout stops the search; otherwise the next row is tried and the best over all wins.
 */
async function readRows(grey: GreyImage): Promise<PlateOcrResult> {
  const regions = findPlateRegions(grey, { maxRegions: MAX_ROWS });
  if (regions.length === 0) return { plate: null, candidates: [], reason: 'unreadable' };
  if (!engine) engine = startEngine();
  const worker = await engine;
  setThreadHeld(worker, true);
  try {
    const chosen: ChosenPlate[] = [];
    for (const found of regions) {
      const region = await enlargedIfSmall(grey, found);
      const reads: PassRead[] = [];
      let best: ChosenPlate | undefined;
      for (const pass of PASSES) {
        reads.push(await recognizeRow(worker, await pass.prepare(region)));
        best = choosePlate(reads, region.expectedLength)[0];
        const rightLength = region.expectedLength === null || best?.plate.length === region.expectedLength;
        if (best && best.layout && rightLength && best.passes >= AGREEING_PASSES && isLayoutPlate(best.plate)) break;
      }
      const ranked = choosePlate(reads, region.expectedLength);
      // A look-alike two layouts dispute (1 or I, 0 or O), settled by the character's shape.
      if (ranked[0]) ranked[0] = { ...ranked[0], plate: settleLookAlikes(ranked[0].plate, region.shapes) };
      chosen.push(...ranked);
      if (ranked[0]?.layout) break;
    }
    const candidates = [...new Set(chosen.sort((a, b) => b.score - a.score).map((c) => c.plate))];
    return candidates.length > 0 ? { plate: candidates[0]!, candidates } : { plate: null, candidates: [], reason: 'unreadable' };
  } finally {
    setThreadHeld(worker, false);
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
