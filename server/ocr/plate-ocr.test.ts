import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalPlate, matchPlate } from '../../domain/plate-match';
import { PHOTO_PLATES } from './fixtures/make-photos';
import { renderPlate } from './fixtures/plate-image';
import { closePlateOcr, MAX_WAITING, readPlate } from './plate-ocr';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
// The worker starts in about a second on a quiet machine; these machines are shared.
const OCR_TIMEOUT_MS = 120_000;

// The site's expected vehicles, with near neighbours so a wrong read would match the wrong one.
const site = ['CFC 21A', 'CFC 24A', 'MHL 88R', 'MHL 86R', 'XK21 9QW', 'TRK 407', 'SCT 30S', 'SCT 31S'].map((plate) => ({ plate }));

/** Deterministic grey noise, no plate in it. */
async function noisePicture(seed: number): Promise<Buffer> {
  let state = seed;
  const pixels = Buffer.alloc(320 * 240);
  for (let i = 0; i < pixels.length; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    pixels[i] = state >>> 24;
  }
  return sharp(pixels, { raw: { width: 320, height: 240, channels: 1 } }).png().toBuffer();
}

afterAll(async () => {
  await closePlateOcr();
});

describe('readPlate', () => {
  it(
    'reads plates drawn in the test: dark on white and on yellow, light on dark, small',
    async () => {
      const cases: Array<[string, Parameters<typeof renderPlate>[1]]> = [
        ['CFC 21A', {}],
        ['XK21 9QW', { background: '#f5c400' }],
        ['MHL 88R', { background: '#1b1b1b', ink: '#eeeeee' }],
        ['TRK 407', { charHeight: 22, border: false }],
      ];
      for (const [text, style] of cases) {
        const result = await readPlate(await renderPlate(text, style));
        expect(result.reason, text).toBeUndefined();
        expect(canonicalPlate(result.plate ?? ''), text).toBe(canonicalPlate(text));
        expect(result.candidates[0]).toBe(result.plate);
        // And the read picks the right vehicle out of its near neighbours, confidently.
        const match = matchPlate(result.plate!, site, { threshold: 0.8 });
        expect(match.candidates[0]!.vehicle.plate, text).toBe(text);
        expect(match.confident, text).toBe(true);
      }
    },
    OCR_TIMEOUT_MS,
  );

  it(
    'reads the plate in a photo-like picture and ignores the other lettering on the truck',
    async () => {
      for (const [file, plate] of Object.entries(PHOTO_PLATES)) {
        const result = await readPlate(fs.readFileSync(path.join(fixtures, file)));
        expect(canonicalPlate(result.plate ?? ''), file).toBe(canonicalPlate(plate));
        // 'HAUL' on the grille is read too, but it is no plate.
        expect(result.candidates, file).not.toContain('HAUL');
        expect(matchPlate(result.plate!, site, { threshold: 0.8 }).candidates[0]!.vehicle.plate, file).toBe(plate);
      }
    },
    OCR_TIMEOUT_MS,
  );

  it(
    'answers unreadable for a picture without a plate',
    async () => {
      expect(await readPlate(await noisePicture(1))).toEqual({ plate: null, candidates: [], reason: 'unreadable' });
      const blank = await sharp({ create: { width: 400, height: 120, channels: 3, background: '#d0d0d0' } }).jpeg().toBuffer();
      expect(await readPlate(blank)).toEqual({ plate: null, candidates: [], reason: 'unreadable' });
      // Lettering that is not a plate (no digits) is not returned as one.
      expect(await readPlate(await renderPlate('HAUL'))).toEqual({ plate: null, candidates: [], reason: 'unreadable' });
    },
    OCR_TIMEOUT_MS,
  );

  it('answers not_an_image for anything that is not a picture, without throwing', async () => {
    const notAnImage = { plate: null, candidates: [], reason: 'not_an_image' };
    expect(await readPlate(Buffer.from('%PDF-1.7\nnot a photo'))).toEqual(notAnImage);
    expect(await readPlate(Buffer.alloc(0))).toEqual(notAnImage);
    expect(await readPlate(Buffer.from('GIF89a'))).toEqual(notAnImage);
    // SVG decodes, but it is a drawing that could fetch things, not a photo.
    expect(await readPlate(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'))).toEqual(notAnImage);
    // The first bytes of a real JPEG and nothing after.
    const jpeg = fs.readFileSync(path.join(fixtures, 'truck-front.jpg'));
    expect(await readPlate(jpeg.subarray(0, 200))).toEqual(notAnImage);
  });

  it(
    'reads pictures in turn, answers busy beyond the queue, and restarts after being closed',
    async () => {
      const noise = await noisePicture(2);
      const results = await Promise.all(Array.from({ length: MAX_WAITING + 3 }, () => readPlate(noise)));
      expect(results.filter((r) => r.reason === 'unreadable')).toHaveLength(MAX_WAITING);
      expect(results.filter((r) => r.reason === 'busy')).toHaveLength(3);
      // The queue drained: the next picture is read.
      await closePlateOcr();
      const again = await readPlate(await renderPlate('SCT 31S'));
      expect(canonicalPlate(again.plate ?? '')).toBe(canonicalPlate('SCT31S'));
    },
    OCR_TIMEOUT_MS,
  );
});
