import { describe, expect, it } from 'vitest';
import { findPlateRegions, greyFromRgba, MIN_ROW, otsuThreshold, rgbaFromGrey, rotate, TARGET_CHAR_HEIGHT, workingScale, type GreyImage } from './plate-image';

function canvas(width: number, height: number, background: number): GreyImage {
  return { width, height, data: new Uint8Array(width * height).fill(background) };
}

function fillRect(image: GreyImage, x: number, y: number, w: number, h: number, value: number): void {
  for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) image.data[yy * image.width + xx] = value;
}

/** A character-like shape: an outlined box, like a 0 (paper inside, so not a solid blob). */
function glyph(image: GreyImage, x: number, y: number, w: number, h: number, ink: number, stroke = 4): void {
  fillRect(image, x, y, w, stroke, ink);
  fillRect(image, x, y + h - stroke, w, stroke, ink);
  fillRect(image, x, y, stroke, h, ink);
  fillRect(image, x + w - stroke, y, stroke, h, ink);
}

/** A plate: `count` glyphs 22 × 40 in a row, 10 apart, from (x, y); `drift` moves each one down. */
function plate(image: GreyImage, x: number, y: number, count: number, ink: number, drift = 0): void {
  for (let i = 0; i < count; i++) glyph(image, x + i * 32, y + i * drift, 22, 40, ink);
}

describe('findPlateRegions', () => {
  it('finds a row of dark characters on a light plate and draws them alone, scaled, black on white', () => {
    const image = canvas(400, 160, 230);
    plate(image, 60, 50, 6, 20);
    const regions = findPlateRegions(image);
    expect(regions).toHaveLength(1);
    const [region] = regions;
    expect(region).toMatchObject({ characters: 6, inverted: false });
    // The box holds the row (60..242 × 50..89) and a margin of half a character.
    expect(region!.box.x0).toBeLessThanOrEqual(60);
    expect(region!.box.x1).toBeGreaterThanOrEqual(60 + 5 * 32 + 21);
    expect(region!.box.y0).toBeLessThanOrEqual(50);
    expect(region!.box.y1).toBeGreaterThanOrEqual(89);
    // Only black and white, scaled so a character is TARGET_CHAR_HEIGHT high.
    const { image: out } = region!;
    expect(new Set(out.data)).toEqual(new Set([0, 255]));
    const inkRows = [...Array(out.height).keys()].filter((y) => out.data.subarray(y * out.width, (y + 1) * out.width).includes(0));
    expect(inkRows.at(-1)! - inkRows[0]! + 1).toBeGreaterThanOrEqual(TARGET_CHAR_HEIGHT - 2);
    expect(inkRows.at(-1)! - inkRows[0]! + 1).toBeLessThanOrEqual(TARGET_CHAR_HEIGHT + 2);
    // A white margin all round.
    expect(out.data.subarray(0, out.width).every((v) => v === 255)).toBe(true);
  });

  it('finds light characters on a dark plate and draws them dark on white', () => {
    const image = canvas(400, 160, 30);
    plate(image, 60, 50, 7, 220);
    const [region] = findPlateRegions(image);
    expect(region).toMatchObject({ characters: 7, inverted: true });
    // Mostly paper: the characters were turned dark, the dark plate white.
    const ink = region!.image.data.filter((v) => v === 0).length;
    expect(ink / region!.image.data.length).toBeLessThan(0.4);
  });

  it('leaves out the plate frame, specks and other marks', () => {
    const image = canvas(420, 180, 235);
    fillRect(image, 30, 30, 360, 4, 20); // frame
    fillRect(image, 30, 146, 360, 4, 20);
    fillRect(image, 30, 30, 4, 120, 20);
    fillRect(image, 386, 30, 4, 120, 20);
    plate(image, 70, 70, 5, 20);
    fillRect(image, 50, 40, 3, 3, 20); // screw
    const regions = findPlateRegions(image);
    expect(regions).toHaveLength(1);
    expect(regions[0]!.characters).toBe(5);
    // The frame is not in the picture drawn: no ink in the top and bottom rows of it.
    const out = regions[0]!.image;
    expect(out.data.subarray(0, out.width * 10).every((v) => v === 255)).toBe(true);
  });

  it('follows a slightly tilted row', () => {
    const image = canvas(400, 200, 230);
    plate(image, 40, 40, 7, 20, 4); // 24 px lower at the end: more than the tolerance against the first
    expect(findPlateRegions(image)[0]?.characters).toBe(7);
  });

  it("leaves out a line at a row's end thinner than the characters' strokes (the frame), not an I", () => {
    const image = canvas(420, 160, 230);
    for (let i = 0; i < 6; i++) glyph(image, 60 + i * 32, 50, 22, 40, 20, 6); // strokes 6 px wide
    fillRect(image, 46, 50, 3, 40, 20); // the frame's edge, as high as the characters
    expect(findPlateRegions(image)[0]).toMatchObject({ characters: 6, expectedLength: 6 });
    fillRect(image, 44, 50, 6, 40, 20); // as wide as the strokes: an I
    expect(findPlateRegions(image)[0]).toMatchObject({ characters: 7, expectedLength: 7 });
  });

  it('puts the longer row first when there are two', () => {
    const image = canvas(400, 260, 230);
    plate(image, 40, 30, 4, 20);
    plate(image, 40, 150, 6, 20);
    const regions = findPlateRegions(image);
    expect(regions.map((r) => r.characters)).toEqual([6, 4]);
    expect(regions[0]!.box.y0).toBeGreaterThan(100);
    expect(findPlateRegions(image, { maxRegions: 1 })).toHaveLength(1);
  });

  it('finds nothing without a row of like characters', () => {
    // Too few characters.
    const short = canvas(300, 120, 230);
    plate(short, 40, 40, MIN_ROW - 1, 20);
    expect(findPlateRegions(short)).toEqual([]);
    // Shapes of different heights, or scattered up and down.
    const mixed = canvas(400, 120, 230);
    [20, 44, 28, 60, 36].forEach((h, i) => glyph(mixed, 40 + i * 40, 30, 22, h, 20));
    expect(findPlateRegions(mixed)).toEqual([]);
    const scattered = canvas(400, 200, 230);
    [20, 90, 40, 130, 60].forEach((y, i) => glyph(scattered, 40 + i * 40, y, 22, 40, 20));
    expect(findPlateRegions(scattered)).toEqual([]);
    // Solid blocks are not characters.
    const blocks = canvas(400, 120, 230);
    for (let i = 0; i < 6; i++) fillRect(blocks, 40 + i * 32, 40, 22, 40, 20);
    expect(findPlateRegions(blocks)).toEqual([]);
    // A blank picture, noise, and a picture too small to hold a character.
    expect(findPlateRegions(canvas(300, 100, 128))).toEqual([]);
    let state = 42;
    const noise = canvas(320, 240, 0);
    for (let i = 0; i < noise.data.length; i++) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      noise.data[i] = state >>> 24;
    }
    expect(findPlateRegions(noise)).toEqual([]);
    expect(findPlateRegions(canvas(8, 8, 255))).toEqual([]);
  });
});

describe('the row slope', () => {
  it("measures a row's slope from its characters' feet", () => {
    const image = canvas(400, 200, 230);
    plate(image, 60, 40, 6, 20, 4); // 4 px down per 32 px
    expect(findPlateRegions(image)[0]!.slope).toBeCloseTo(4 / 32, 2);
    const level = canvas(400, 160, 230);
    plate(level, 60, 50, 6, 20);
    expect(findPlateRegions(level)[0]!.slope).toBe(0);
  });
});

describe('pixels', () => {
  it("splits a two-tone histogram between the tones (Otsu's method)", () => {
    const data = new Uint8Array(1000);
    data.fill(40, 0, 300);
    data.fill(200, 300);
    const threshold = otsuThreshold(data);
    expect(threshold).toBeGreaterThanOrEqual(40);
    expect(threshold).toBeLessThan(200);
  });

  it('turns RGBA into grey and back', () => {
    const rgba = new Uint8ClampedArray([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255]);
    const grey = greyFromRgba(rgba, 3, 1);
    expect([...grey.data]).toEqual([255, 0, 76]);
    expect([...rgbaFromGrey(grey)]).toEqual([255, 255, 255, 255, 0, 0, 0, 255, 76, 76, 76, 255]);
  });

  it('shrinks only pictures larger than the working size', () => {
    expect(workingScale(800, 600)).toBe(1);
    expect(workingScale(4000, 3000)).toBeCloseTo(1200 / 4000);
    expect(workingScale(1000, 2400)).toBeCloseTo(0.5);
  });

  it('turns a picture clockwise about its centre, edges filled from the nearest pixel', () => {
    const image = canvas(101, 101, 255);
    fillRect(image, 10, 48, 81, 5, 0); // a level bar through the centre
    expect(rotate(image, 0).data).toEqual(image.data);
    const turned = rotate(image, Math.PI / 12); // 15° clockwise: the right end goes down
    const inkIn = (x: number) => [...Array(101).keys()].filter((y) => turned.data[y * 101 + x]! < 128);
    const left = inkIn(20);
    const right = inkIn(80);
    expect(right[0]! - left[0]!).toBeGreaterThan(12);
    expect(Math.abs(inkIn(50)[0]! - 48)).toBeLessThanOrEqual(1);
    // No black corners come in from outside the picture.
    expect(turned.data[0]).toBe(255);
    expect(turned.data[101 * 101 - 1]).toBe(255);
  });
});
