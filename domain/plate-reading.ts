// Reading a plate out of a greyscale picture, whatever runs the OCR (issue 22 item 8). The server
// (server/ocr/plate-ocr.ts: tesseract.js in a worker thread) and the browser (web/lib/plate-ocr.ts:
// tesseract.js in a Web Worker) both call readPlateRows with their own `recognize`, so both find
// the same rows, prepare the same passes and choose the same plate.
//
// Per row (longest first, domain/plate-image.ts): the row is found again in its part of the
// picture turned level, and enlarged when its characters are small; then the passes (PASSES) are read one by one and pooled
// (domain/plate-layouts.ts choosePlate) until two agree on a plate of a layout and of the row's
// length; a look-alike two layouts dispute is settled by the character's shape. A row whose best
// plate fits a layout ends the search.
import { findPlateRegions, resample, reweigh, rotate, type GreyImage, type PlateRegion } from './plate-image';
import { choosePlate, isLayoutPlate, settleLookAlikes, type ChosenPlate, type PassRead } from './plate-layouts';

/** Reads one prepared row (black ink on white) as one line of text, with its confidence (0–100). */
export type RecognizeRow = (row: GreyImage) => Promise<PassRead>;

/** The part of Tesseract's page (blocks) that holds its per-character confidences. */
export type OcrBlocks = ReadonlyArray<{
  paragraphs: ReadonlyArray<{ lines: ReadonlyArray<{ words: ReadonlyArray<{ symbols: ReadonlyArray<{ confidence: number }> }> }> }>;
}>;

/**
 * A read's confidence: the median of its characters' (0–100). Tesseract's own figure for the
 * text is 0 for most reads with a whitelist, and it gives the first character after a space 0.
 */
export function symbolConfidence(blocks: OcrBlocks | null | undefined): number {
  const values = (blocks ?? [])
    .flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words.flatMap((w) => w.symbols.map((s) => s.confidence)))))
    .sort((a, b) => a - b);
  return values.length === 0 ? 0 : values[Math.floor(values.length / 2)]!;
}

/** Rows of characters read per picture at most (the longest rows first). */
export const MAX_ROWS = 3;
/** A plate fitting a layout as read, read alike by this many passes, is taken without more passes. */
const AGREEING_PASSES = 2;
/** Rows with characters lower than this (pixels) are looked at again enlarged. */
const SMALL_CHARACTERS = 30;
const ENLARGE = 2.5;

export type Pass = { name: string; prepare: (region: PlateRegion) => GreyImage };

/** The passes over one row: the prepared row, spaced out, strokes thinner and thicker, smaller and larger. */
export const PASSES: readonly Pass[] = [
  { name: 'row', prepare: (region) => region.image },
  { name: 'spaced', prepare: (region) => region.spaced },
  { name: 'thin', prepare: (region) => reweigh(region.image, 'thin') },
  { name: 'thick', prepare: (region) => reweigh(region.image, 'thick') },
  { name: 'spaced-thin', prepare: (region) => reweigh(region.spaced, 'thin') },
  { name: 'small', prepare: (region) => binarised(resample(region.image, 0.7)) },
  { name: 'large', prepare: (region) => binarised(resample(region.image, 1.4)) },
];

/** A resampled black-and-white row back to black and white (resampling greys the edges). */
function binarised(image: GreyImage): GreyImage {
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = image.data[i]! < 128 ? 0 : 255;
  return { ...image, data };
}

/** Part of a greyscale picture. */
function cropped(grey: GreyImage, left: number, top: number, width: number, height: number): GreyImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) data.set(grey.data.subarray((top + y) * grey.width + left, (top + y) * grey.width + left + width), y * width);
  return { width, height, data };
}

/** A row tilted less than this (radians, ~1°) is read as it is. */
const LEVEL = 0.017;

/**
 * The row found again in its part of the picture turned level (by the slope of its characters'
 * feet) and, for small characters, enlarged — both before the threshold, on the grey pixels. Level,
 * Tesseract keeps a row's last narrow I or T and stops reading an L as a 1; enlarged, strokes a
 * pixel or two wide keep their shape (a C and a J at 18 px no longer merge into blobs). The row
 * as found when the new picture shows fewer characters.
 */
export function refinedRegion(grey: GreyImage, region: PlateRegion): PlateRegion {
  const charHeight = (region.box.y1 - region.box.y0 + 1) / 2;
  const angle = Math.atan(region.slope);
  const small = charHeight < SMALL_CHARACTERS;
  if (!small && Math.abs(angle) < LEVEL) return region;
  const margin = Math.round(charHeight);
  const left = Math.max(0, region.box.x0 - margin);
  const top = Math.max(0, region.box.y0 - margin);
  const width = Math.min(grey.width, region.box.x1 + margin + 1) - left;
  const height = Math.min(grey.height, region.box.y1 + margin + 1) - top;
  let part = cropped(grey, left, top, width, height);
  if (small) part = resample(part, ENLARGE);
  if (Math.abs(angle) >= LEVEL) part = rotate(part, -angle);
  const [again] = findPlateRegions(part, { maxRegions: 1 });
  return again && again.characters >= region.characters ? again : region;
}

/** The likeliest plate (null: none), every plausible read best first, and the best confidence (0–100) of the reads giving the plate. */
export type RowsRead = { plate: string | null; candidates: string[]; confidence: number | null };

/**
 * The likeliest plate in a greyscale picture (scaled to MAX_WORKING_SIDE already) and every
 * plausible read, best first; plate null when no row of characters reads as one. `onRead` sees
 * every pass' read (benches, diagnosis).
 */
export async function readPlateRows(
  grey: GreyImage,
  recognize: RecognizeRow,
  options: { onRead?: (pass: string, read: PassRead, region: PlateRegion) => void } = {},
): Promise<RowsRead> {
  const chosen: ChosenPlate[] = [];
  for (const found of findPlateRegions(grey, { maxRegions: MAX_ROWS })) {
    const region = refinedRegion(grey, found);
    const reads: PassRead[] = [];
    for (const pass of PASSES) {
      const read = await recognize(pass.prepare(region));
      options.onRead?.(pass.name, read, region);
      reads.push(read);
      const best = choosePlate(reads, region.expectedLength)[0];
      const rightLength = region.expectedLength === null || best?.plate.length === region.expectedLength;
      if (best && best.layout && rightLength && best.passes >= AGREEING_PASSES && isLayoutPlate(best.plate)) break;
    }
    const ranked = choosePlate(reads, region.expectedLength);
    // A look-alike two layouts dispute (1 or I, 0 or O), settled by the character's shape.
    if (ranked[0]) ranked[0] = { ...ranked[0], plate: settleLookAlikes(ranked[0].plate, region.shapes) };
    chosen.push(...ranked);
    if (ranked[0]?.layout) break;
  }
  chosen.sort((a, b) => b.score - a.score);
  const candidates = [...new Set(chosen.map((c) => c.plate))];
  if (candidates.length === 0) return { plate: null, candidates: [], confidence: null };
  return { plate: candidates[0]!, candidates, confidence: chosen[0]!.confidence };
}
