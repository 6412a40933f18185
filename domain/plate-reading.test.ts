import { describe, expect, it } from 'vitest';
import { findPlateRegions, type GreyImage } from './plate-image';
import { PASSES, readPlateRows, refinedRegion, symbolConfidence } from './plate-reading';

function canvas(width: number, height: number, background: number): GreyImage {
  return { width, height, data: new Uint8Array(width * height).fill(background) };
}

function fillRect(image: GreyImage, x: number, y: number, w: number, h: number, value: number): void {
  for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) image.data[yy * image.width + xx] = value;
}

/** `count` outlined boxes 22 × 40 (like a 0), 32 apart, each `drift` px lower than the last. */
function plate(image: GreyImage, x: number, y: number, count: number, drift = 0): void {
  for (let i = 0; i < count; i++) {
    const [gx, gy] = [x + i * 32, y + i * drift];
    fillRect(image, gx, gy, 22, 4, 20);
    fillRect(image, gx, gy + 36, 22, 4, 20);
    fillRect(image, gx, gy, 4, 40, 20);
    fillRect(image, gx + 18, gy, 4, 40, 20);
  }
}

describe('refinedRegion', () => {
  it('finds a tilted row again turned level, with all its characters', () => {
    const image = canvas(420, 240, 230);
    plate(image, 60, 40, 7, 4); // ~7° clockwise
    const [found] = findPlateRegions(image);
    expect(found!.slope).toBeGreaterThan(0.1);
    const level = refinedRegion(image, found!);
    expect(level.characters).toBe(7);
    expect(Math.abs(level.slope)).toBeLessThan(0.02);
  });

  it('keeps a level row of large characters as found', () => {
    const image = canvas(420, 160, 230);
    plate(image, 60, 50, 6);
    const [found] = findPlateRegions(image);
    expect(refinedRegion(image, found!)).toBe(found);
  });
});

describe('readPlateRows', () => {
  it('reads the passes until two agree on a plate of a layout, and pools them', async () => {
    const image = canvas(420, 160, 230);
    plate(image, 60, 50, 7);
    const texts = ['AB12 CDE', 'A812 CDE', 'AB12CDE', 'never read'];
    const seen: GreyImage[] = [];
    const read = await readPlateRows(image, async (row) => {
      seen.push(row);
      return { text: texts[seen.length - 1]!, confidence: 90 };
    });
    // A812 CDE is a plate of its own (LDDD LLL): the third pass agrees with the first, and no more are read.
    expect(seen).toHaveLength(3);
    expect(read).toEqual({ plate: 'AB12CDE', candidates: ['AB12CDE', 'A812CDE'], confidence: 90 });
    // Every pass is black on white.
    for (const row of seen) expect(new Set(row.data)).toEqual(new Set([0, 255]));
  });

  it('answers no plate, and never starts the OCR, when the picture has no row of characters', async () => {
    let calls = 0;
    const read = await readPlateRows(canvas(300, 100, 128), async () => {
      calls++;
      return { text: '', confidence: 0 };
    });
    expect(read).toEqual({ plate: null, candidates: [], confidence: null });
    expect(calls).toBe(0);
  });

  it('reads every pass when they disagree, and every pass is a picture', async () => {
    const image = canvas(420, 160, 230);
    plate(image, 60, 50, 7);
    let calls = 0;
    await readPlateRows(image, async (row) => {
      expect(row.width * row.height).toBe(row.data.length);
      return { text: ['AB12 CDE', 'XY34 ZZZ', 'KL56 MNP', 'QR78 STU', 'VW90 ABC', 'DE11 FGH', 'JK22 LMN'][calls++]!, confidence: 50 };
    });
    expect(calls).toBe(PASSES.length);
  });
});

describe('symbolConfidence', () => {
  it("is the median of the characters' confidences, 0 without any", () => {
    const symbols = [90, 10, 80, 95, 70].map((confidence) => ({ confidence }));
    expect(symbolConfidence([{ paragraphs: [{ lines: [{ words: [{ symbols: symbols.slice(0, 2) }, { symbols: symbols.slice(2) }] }] }] }])).toBe(80);
    expect(symbolConfidence(null)).toBe(0);
    expect(symbolConfidence([])).toBe(0);
  });
});
