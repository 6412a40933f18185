// Finding the characters of a number plate in a greyscale picture, before OCR. Pure (pixels in,
// pixels out), so the server (decoded by sharp) and the browser (a canvas) prepare images alike.
//
// Steps: a 3 × 3 blur, Otsu's threshold, then connected components of "ink" in both polarities
// (dark on light and light on dark plates). Characters are components of a plausible size and
// shape; a plate is a row of at least MIN_ROW characters of about the same height, aligned top
// and bottom and close together. Each row found becomes a clean picture — only its characters,
// black on white, scaled to a height Tesseract reads well, with a white margin. Frames, screws,
// stickers and the rest of the photo are left out, which is what makes a single-line read (PSM 7)
// work on a photo rather than only on a tight crop.

export type GreyImage = {
  width: number;
  height: number;
  /** One byte per pixel, row by row, 0 = black. */
  data: Uint8Array | Uint8ClampedArray;
};

export type Box = { x0: number; y0: number; x1: number; y1: number };

export type PlateRegion = {
  /** The characters only, black (0) on white (255), scaled and with a margin. */
  image: GreyImage;
  /**
   * The same characters redrawn one by one, evenly spaced (a third of a character apart): touching
   * characters come apart, and a narrow last I or J is not lost to its neighbour. Another pass.
   */
  spaced: GreyImage;
  /** Each character's shape, left to right (for telling look-alikes apart: shapeHints). */
  shapes: CharacterShape[];
  /** Where the row is in the input picture. */
  box: Box;
  /** How many character-like shapes the row holds. */
  characters: number;
  /**
   * How many characters the plate has, when every shape is one character (none as wide as two
   * touching ones), else null. A read of another length has lost or invented a character.
   */
  expectedLength: number | null;
  /** Whether the characters were light on a dark plate. */
  inverted: boolean;
  /** The row's slope in the picture (pixels down per pixel right; positive: turned clockwise). */
  slope: number;
};

/** The fewest characters a plate row may have (shorter rows are too easily found in noise). */
export const MIN_ROW = 3;
/** The most characters a plate row may have. */
export const MAX_ROW = 12;
/** Character height the prepared images are scaled to (Tesseract likes 30–50 px capitals). */
export const TARGET_CHAR_HEIGHT = 48;
/** A bigger picture is scaled down to this longest side before the search (both sides do so). */
export const MAX_WORKING_SIDE = 1200;

const MIN_CHAR_HEIGHT = 10;
/** Wider than this (width / height) a shape is taken for touching characters, not one. */
const SINGLE_MAX_ASPECT = 1.45;
/** A picture with more components than this is noise, not a scene with a plate. */
const MAX_COMPONENTS = 20_000;

/** The scale (≤ 1) that brings the longer side of a width × height picture to MAX_WORKING_SIDE. */
export function workingScale(width: number, height: number): number {
  return Math.min(1, MAX_WORKING_SIDE / Math.max(width, height));
}

/** Greyscale from RGBA pixels (a canvas' ImageData), ITU-R BT.601 weights. */
export function greyFromRgba(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): GreyImage {
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += 4) {
    data[i] = (rgba[j]! * 299 + rgba[j + 1]! * 587 + rgba[j + 2]! * 114 + 500) / 1000;
  }
  return { width, height, data };
}

/** RGBA pixels (for a canvas' ImageData) from a greyscale picture. */
export function rgbaFromGrey(image: GreyImage): Uint8ClampedArray<ArrayBuffer> {
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0, j = 0; i < image.data.length; i++, j += 4) {
    const v = image.data[i]!;
    rgba[j] = v;
    rgba[j + 1] = v;
    rgba[j + 2] = v;
    rgba[j + 3] = 255;
  }
  return rgba;
}

/** A 3 × 3 box blur (edges use the pixels that exist). Takes the edge off JPEG noise and dithering. */
export function boxBlur(image: GreyImage): GreyImage {
  const { width, height, data } = image;
  // Horizontal sums of three, then vertical sums of those: nine pixels, fewer at the edges.
  const rows = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      rows[row + x] = data[row + x]! + (x > 0 ? data[row + x - 1]! : 0) + (x < width - 1 ? data[row + x + 1]! : 0);
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const up = y > 0 ? row - width : row;
    const down = y < height - 1 ? row + width : row;
    const ny = (y > 0 ? 1 : 0) + (y < height - 1 ? 1 : 0) + 1;
    // The interior divides by nine; the first and last columns have six (or four) pixels.
    for (let x = 0; x < width; x++) {
      const sum = rows[row + x]! + (up !== row ? rows[up + x]! : 0) + (down !== row ? rows[down + x]! : 0);
      const nx = x === 0 || x === width - 1 ? (width === 1 ? 1 : 2) : 3;
      out[row + x] = (sum + ((nx * ny) >> 1)) / (nx * ny);
    }
  }
  return { width, height, data: out };
}

/** Otsu's threshold: the grey level that best splits the histogram in two classes. */
export function otsuThreshold(data: Uint8Array | Uint8ClampedArray): number {
  const histogram = new Float64Array(256);
  for (let i = 0; i < data.length; i++) histogram[data[i]!]++;
  const total = data.length;
  let sum = 0;
  for (let level = 0; level < 256; level++) sum += level * histogram[level]!;
  let sumBelow = 0;
  let weightBelow = 0;
  let bestVariance = -1;
  let threshold = 127;
  for (let level = 0; level < 256; level++) {
    weightBelow += histogram[level]!;
    if (weightBelow === 0) continue;
    const weightAbove = total - weightBelow;
    if (weightAbove === 0) break;
    sumBelow += level * histogram[level]!;
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sum - sumBelow) / weightAbove;
    const variance = weightBelow * weightAbove * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      threshold = level;
    }
  }
  return threshold;
}

type Component = { label: number; x0: number; y0: number; x1: number; y1: number; area: number };

/**
 * 8-connected components of the ink pixels (ink[i] = 1), by runs: each row's runs of ink are
 * joined (union–find) to the runs they touch in the row above. Returns the label per pixel
 * (0 = paper) and each component's bounding box and area, or null when there are more than
 * MAX_COMPONENTS (noise, not a scene).
 */
function labelComponents(ink: Uint8Array, width: number, height: number): { labels: Int32Array; components: Component[] } | null {
  const runStart: number[] = [];
  const runEnd: number[] = []; // inclusive
  const runRow: number[] = [];
  const parent: number[] = [];
  const find = (run: number): number => {
    let root = run;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[run] !== root) {
      const next = parent[run]!;
      parent[run] = root;
      run = next;
    }
    return root;
  };
  let previousFirst = 0;
  let previousCount = 0;
  for (let y = 0; y < height; y++) {
    const rowOffset = y * width;
    const first = runStart.length;
    let above = previousFirst;
    const aboveEnd = previousFirst + previousCount;
    for (let x = 0; x < width; x++) {
      if (ink[rowOffset + x] === 0) continue;
      const start = x;
      while (x + 1 < width && ink[rowOffset + x + 1] === 1) x++;
      const run = runStart.length;
      runStart.push(start);
      runEnd.push(x);
      runRow.push(y);
      parent.push(run);
      // Runs above that touch this one, diagonals included.
      while (above < aboveEnd && runEnd[above]! < start - 1) above++;
      for (let k = above; k < aboveEnd && runStart[k]! <= x + 1; k++) {
        const a = find(k);
        const b = find(run);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
    previousFirst = first;
    previousCount = runStart.length - first;
  }
  const labelOfRoot = new Map<number, number>();
  const components: Component[] = [];
  const labels = new Int32Array(width * height);
  for (let run = 0; run < runStart.length; run++) {
    const root = find(run);
    let label = labelOfRoot.get(root);
    if (label === undefined) {
      if (components.length >= MAX_COMPONENTS) return null;
      label = components.length + 1;
      labelOfRoot.set(root, label);
      components.push({ label, x0: width, y0: height, x1: -1, y1: -1, area: 0 });
    }
    const c = components[label - 1]!;
    const start = runStart[run]!;
    const end = runEnd[run]!;
    const y = runRow[run]!;
    if (start < c.x0) c.x0 = start;
    if (end > c.x1) c.x1 = end;
    if (y < c.y0) c.y0 = y;
    if (y > c.y1) c.y1 = y;
    c.area += end - start + 1;
    labels.fill(label, y * width + start, y * width + end + 1);
  }
  return { labels, components };
}

const heightOf = (c: Box) => c.y1 - c.y0 + 1;
const widthOf = (c: Box) => c.x1 - c.x0 + 1;

/** A component shaped like a character of a plate: not a speck, a bar across, a frame or a blob. */
function isCharacterLike(c: Component, imageHeight: number): boolean {
  const h = heightOf(c);
  const w = widthOf(c);
  if (h < MIN_CHAR_HEIGHT || h > imageHeight * 0.95) return false;
  const aspect = w / h;
  // A bold W or M is half as wide again as it is high; wider still are characters that touch (a
  // serif typeface's serifs join neighbours): up to about four of them read as one shape.
  if (aspect < 0.06 || aspect > 3.6) return false;
  const fill = c.area / (w * h);
  // A 1 or an I is a solid bar; anything wider must have paper inside its box.
  // (A bold I, blurred at 18 px, is a bar about a third as wide as it is high.)
  return aspect < 0.36 ? fill > 0.3 : fill > 0.12 && fill < 0.9;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Rows of characters: chains of components, left to right, of about the same height as the first,
 * each aligned top and bottom with the last and within about one character height of it. Best (longest, then tallest) first.
 */
function findRows(chars: Component[]): Component[][] {
  const sorted = [...chars].sort((a, b) => a.x0 - b.x0);
  const rows: Component[][] = [];
  const used = new Set<number>();
  for (const seed of sorted) {
    if (used.has(seed.label)) continue;
    const h = heightOf(seed);
    const row = [seed];
    let last = seed;
    for (const next of sorted) {
      // Boxes of neighbours may overlap (kerning, tilt: a T under a W's arm): the next one's centre is a
      // quarter of a character or more past the last one's, and it starts well past the last's start.
      if (next.x0 + next.x1 <= last.x0 + last.x1 + h * 0.5 || next.x0 <= last.x0 + widthOf(last) * 0.35 || used.has(next.label)) continue;
      const nh = heightOf(next);
      if (nh < h * 0.75 || nh > h * 1.4) continue;
      // Aligned with the previous character (a slightly tilted plate drifts along the row), at the
      // top or at the bottom: a J or a Q reaches below the others in many typefaces.
      const tolerance = h * 0.2;
      if (Math.abs(next.y0 - last.y0) > tolerance && Math.abs(next.y1 - last.y1) > tolerance) continue;
      const gap = next.x0 - last.x1;
      if (gap > h * 1.1) break;
      row.push(next);
      last = next;
      if (row.length > MAX_ROW) break;
    }
    // Characters of like height: one in three at most may reach lower or higher (a J's or a Q's tail).
    const rowHeight = median(row.map(heightOf));
    const alike = row.filter((c) => heightOf(c) >= rowHeight * 0.85 && heightOf(c) <= rowHeight * 1.18).length;
    // Shapes as wide as touching characters count only beside at least two single ones (noise makes wide blobs).
    const single = row.filter((c) => widthOf(c) < heightOf(c) * SINGLE_MAX_ASPECT).length;
    const likeRow = alike >= Math.max(MIN_ROW - 1, row.length - Math.max(1, Math.floor(row.length / 3))) && (single === row.length || single >= 2);
    if (row.length >= MIN_ROW && row.length <= MAX_ROW && likeRow) {
      for (const c of row) used.add(c.label);
      rows.push(row);
    }
  }
  return rows.sort((a, b) => b.length - a.length || median(b.map(heightOf)) - median(a.map(heightOf)));
}

/** The component's typical stroke width: the median length of its horizontal runs of ink. */
function strokeWidthOf(c: Component, labels: Int32Array, width: number): number {
  const runs: number[] = [];
  for (let y = c.y0; y <= c.y1; y++) {
    let run = 0;
    for (let x = c.x0; x <= c.x1 + 1; x++) {
      if (x <= c.x1 && labels[y * width + x] === c.label) run++;
      else if (run > 0) {
        runs.push(run);
        run = 0;
      }
    }
  }
  return runs.length > 0 ? median(runs) : 0;
}

/**
 * The row without a bar at either end thinner than 0.6 of its characters’ strokes: the edge of the
 * plate's frame (a line), not an I or a 1 (a stroke as wide as the others'). Null when too few
 * characters remain.
 */
function withoutFrameEdges(row: Component[], labels: Int32Array, width: number): Component[] | null {
  const strokes = row.map((c) => strokeWidthOf(c, labels, width));
  const stroke = median(strokes);
  const isEdge = (i: number) => widthOf(row[i]!) < heightOf(row[i]!) * 0.36 && widthOf(row[i]!) < stroke * 0.6;
  let first = 0;
  let last = row.length - 1;
  while (first <= last && isEdge(first)) first++;
  while (last >= first && isEdge(last)) last--;
  const kept = row.slice(first, last + 1);
  return kept.length >= MIN_ROW ? kept : null;
}

/** The grey value at a fractional point (clamped to the image), between its four pixels. */
function bilinear(data: Uint8Array | Uint8ClampedArray, width: number, height: number, x: number, y: number): number {
  const fx = Math.min(width - 1, Math.max(0, x));
  const fy = Math.min(height - 1, Math.max(0, y));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const top = data[y0 * width + x0]! * (1 - ax) + data[y0 * width + x1]! * ax;
  const bottom = data[y1 * width + x0]! * (1 - ax) + data[y1 * width + x1]! * ax;
  return top * (1 - ay) + bottom * ay;
}

/** Resamples a greyscale picture by `scale`: area average when shrinking, bilinear when growing. */
export function resample(image: GreyImage, scale: number): GreyImage {
  const { width, height, data } = image;
  const outWidth = Math.max(1, Math.round(width * scale));
  const outHeight = Math.max(1, Math.round(height * scale));
  const out = new Uint8Array(outWidth * outHeight);
  for (let oy = 0; oy < outHeight; oy++) {
    for (let ox = 0; ox < outWidth; ox++) {
      let value: number;
      if (scale < 1) {
        const sx0 = Math.min(width - 1, Math.floor(ox / scale));
        const sy0 = Math.min(height - 1, Math.floor(oy / scale));
        const sx1 = Math.min(width, Math.max(sx0 + 1, Math.floor((ox + 1) / scale)));
        const sy1 = Math.min(height, Math.max(sy0 + 1, Math.floor((oy + 1) / scale)));
        let sum = 0;
        for (let y = sy0; y < sy1; y++) for (let x = sx0; x < sx1; x++) sum += data[y * width + x]!;
        value = sum / ((sx1 - sx0) * (sy1 - sy0));
      } else {
        value = bilinear(data, width, height, (ox + 0.5) / scale - 0.5, (oy + 0.5) / scale - 0.5);
      }
      out[oy * outWidth + ox] = Math.round(value);
    }
  }
  return { width: outWidth, height: outHeight, data: out };
}

/**
 * The row's characters alone, black on white, scaled to TARGET_CHAR_HEIGHT, with a margin. The
 * characters keep their grey edges (pixels within one of a character keep their blurred value,
 * everything else becomes paper), so scaling up a small plate stays smooth; then the threshold.
 */
function renderRow(row: Component[], labels: Int32Array, grey: GreyImage, threshold: number, inverted: boolean): { image: GreyImage; box: Box } {
  const { width, height } = grey;
  const charHeight = median(row.map(heightOf));
  const margin = Math.round(charHeight * 0.5);
  const box: Box = {
    x0: Math.max(0, Math.min(...row.map((c) => c.x0)) - margin),
    y0: Math.max(0, Math.min(...row.map((c) => c.y0)) - margin),
    x1: Math.min(width - 1, Math.max(...row.map((c) => c.x1)) + margin),
    y1: Math.min(height - 1, Math.max(...row.map((c) => c.y1)) + margin),
  };
  const members = new Set(row.map((c) => c.label));
  const cropWidth = widthOf(box);
  const cropHeight = heightOf(box);
  // Ink is dark in the crop whatever the plate's polarity; paper is 255.
  const paper = inverted ? 0 : 255;
  const crop = new Uint8Array(cropWidth * cropHeight).fill(255);
  for (let y = 0; y < cropHeight; y++) {
    for (let x = 0; x < cropWidth; x++) {
      const sx = box.x0 + x;
      const sy = box.y0 + y;
      let near = false;
      for (let dy = -1; dy <= 1 && !near; dy++) {
        const ny = sy + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = sx + dx;
          if (nx >= 0 && nx < width && members.has(labels[ny * width + nx]!)) {
            near = true;
            break;
          }
        }
      }
      const value = near ? grey.data[sy * width + sx]! : paper;
      crop[y * cropWidth + x] = inverted ? 255 - value : value;
    }
  }
  const cut = inverted ? 255 - threshold : threshold;
  const scaled = resample({ width: cropWidth, height: cropHeight, data: crop }, TARGET_CHAR_HEIGHT / charHeight);
  for (let i = 0; i < scaled.data.length; i++) scaled.data[i] = inverted ? (scaled.data[i]! < cut ? 0 : 255) : scaled.data[i]! <= cut ? 0 : 255;
  return { image: padImage(scaled, Math.round(TARGET_CHAR_HEIGHT * 0.4)), box };
}

/** The row's characters one by one, left to right, `spacing` of a character height apart (see PlateRegion.spaced). */
function renderSpaced(row: Component[], labels: Int32Array, grey: GreyImage, threshold: number, inverted: boolean, spacing = 1 / 3): GreyImage {
  const { width, height } = grey;
  const charHeight = median(row.map(heightOf));
  const gap = Math.max(2, Math.round(charHeight * spacing));
  const top = Math.max(0, Math.min(...row.map((c) => c.y0)) - 1);
  const bottom = Math.min(height - 1, Math.max(...row.map((c) => c.y1)) + 1);
  const canvasHeight = bottom - top + 1;
  const canvasWidth = row.reduce((sum, c) => sum + widthOf(c) + 2, 0) + gap * (row.length + 1);
  const paper = inverted ? 0 : 255;
  const canvas = new Uint8Array(canvasWidth * canvasHeight).fill(255);
  let left = gap;
  for (const c of row) {
    for (let y = top; y <= bottom; y++) {
      for (let x = c.x0 - 1; x <= c.x1 + 1; x++) {
        if (x < 0 || x >= width) continue;
        let near = false;
        for (let dy = -1; dy <= 1 && !near; dy++) {
          const ny = y + dy;
          if (ny < 0 || ny >= height) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const nx = x + dx;
            if (nx >= 0 && nx < width && labels[ny * width + nx] === c.label) {
              near = true;
              break;
            }
          }
        }
        const value = near ? grey.data[y * width + x]! : paper;
        canvas[(y - top) * canvasWidth + left + (x - c.x0 + 1)] = inverted ? 255 - value : value;
      }
    }
    left += widthOf(c) + 2 + gap;
  }
  const cut = inverted ? 255 - threshold : threshold;
  const scaled = resample({ width: canvasWidth, height: canvasHeight, data: canvas }, TARGET_CHAR_HEIGHT / charHeight);
  for (let i = 0; i < scaled.data.length; i++) scaled.data[i] = inverted ? (scaled.data[i]! < cut ? 0 : 255) : scaled.data[i]! <= cut ? 0 : 255;
  return padImage(scaled, Math.round(TARGET_CHAR_HEIGHT * 0.4));
}

/**
 * What tells look-alikes apart in a character: how wide it is for its height, and how far the
 * middle of its top quarter lies left of the middle of its bottom quarter (a 1's flag; an I is
 * symmetric), in character heights, corrected for the row's tilt.
 */
export type CharacterShape = { aspect: number; topLean: number };

/** The row's slope from the characters' bottoms (least squares): a tilt leans every stroke alike. */
function slopeOf(row: Component[]): number {
  const xs = row.map((c) => (c.x0 + c.x1) / 2);
  const ys = row.map((c) => c.y1);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return sxx > 0 ? xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / sxx : 0;
}

function shapesOf(row: Component[], labels: Int32Array, width: number): CharacterShape[] {
  const slope = slopeOf(row);
  return row.map((c) => {
    const h = heightOf(c);
    const band = Math.max(1, Math.round(h / 4));
    const centreOf = (y0: number, y1: number) => {
      let left = Infinity;
      let right = -Infinity;
      for (let y = y0; y <= y1; y++) {
        for (let x = c.x0; x <= c.x1; x++) {
          if (labels[y * width + x] !== c.label) continue;
          if (x < left) left = x;
          if (x > right) right = x;
        }
      }
      return left <= right ? (left + right) / 2 : (c.x0 + c.x1) / 2;
    };
    const top = centreOf(c.y0, c.y0 + band - 1);
    const bottom = centreOf(c.y1 - band + 1, c.y1);
    // Turned clockwise by the slope, a stroke's top lies (height between the bands × slope) to the right.
    const lean = top - bottom - (h - band) * slope;
    return { aspect: widthOf(c) / h, topLean: -lean / h };
  });
}

/**
 * The picture turned by `angle` radians (clockwise positive, about its centre), same size,
 * bilinear; what comes in from outside takes the nearest edge pixel (no dark corners to read).
 */
export function rotate(image: GreyImage, angle: number): GreyImage {
  const { width, height, data } = image;
  const out = new Uint8Array(width * height);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // The source of an output pixel: the output point turned back by the angle.
      const dx = x - cx;
      const dy = y - cy;
      out[y * width + x] = Math.round(bilinear(data, width, height, cx + dx * cos + dy * sin, cy - dx * sin + dy * cos));
    }
  }
  return { width, height, data: out };
}

function padImage(image: GreyImage, pad: number): GreyImage {
  const width = image.width + 2 * pad;
  const height = image.height + 2 * pad;
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < image.height; y++) data.set(image.data.subarray(y * image.width, (y + 1) * image.width), (y + pad) * width + pad);
  return { width, height, data };
}

/**
 * The rows of characters in a greyscale picture (best first, at most `maxRegions`), each as a
 * clean picture ready for OCR. An empty list means no plate-like row: the picture is unreadable.
 * Scale the picture down to MAX_WORKING_SIDE first (workingScale); this does not.
 */
export function findPlateRegions(image: GreyImage, options: { maxRegions?: number } = {}): PlateRegion[] {
  const { width, height } = image;
  if (width < MIN_CHAR_HEIGHT || height < MIN_CHAR_HEIGHT) return [];
  const blurred = boxBlur(image);
  const threshold = otsuThreshold(blurred.data);
  const found: Array<{ row: Component[]; labels: Int32Array; inverted: boolean }> = [];
  for (const inverted of [false, true]) {
    const ink = new Uint8Array(width * height);
    const grey = blurred.data;
    if (inverted) for (let i = 0; i < ink.length; i++) ink[i] = grey[i]! > threshold ? 1 : 0;
    else for (let i = 0; i < ink.length; i++) ink[i] = grey[i]! <= threshold ? 1 : 0;
    const labelled = labelComponents(ink, width, height);
    if (!labelled) continue;
    const chars = labelled.components.filter((c) => isCharacterLike(c, height));
    for (const candidate of findRows(chars)) {
      const row = withoutFrameEdges(candidate, labelled.labels, width);
      if (row) found.push({ row, labels: labelled.labels, inverted });
    }
  }
  found.sort((a, b) => b.row.length - a.row.length || median(b.row.map(heightOf)) - median(a.row.map(heightOf)));
  return found.slice(0, options.maxRegions ?? 3).map(({ row, labels, inverted }) => ({
    ...renderRow(row, labels, blurred, threshold, inverted),
    spaced: renderSpaced(row, labels, blurred, threshold, inverted),
    shapes: shapesOf(row, labels, width),
    characters: row.length,
    expectedLength: row.every((c) => widthOf(c) < heightOf(c) * SINGLE_MAX_ASPECT) ? row.length : null,
    inverted,
    slope: slopeOf(row),
  }));
}

/**
 * A prepared row (black ink on white, domain of renderRow) with its strokes one pixel thinner
 * (`'thin'`: touching characters come apart, bold ones open up) or thicker (`'thick'`: broken,
 * thin or noisy strokes join), for a second and third OCR pass.
 */
export function reweigh(image: GreyImage, how: 'thin' | 'thick'): GreyImage {
  const { width, height, data } = image;
  const out = new Uint8Array(width * height);
  // Thin: a pixel stays ink only if its four neighbours are ink. Thick: it becomes ink if any is.
  const ink = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && data[y * width + x]! < 128;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const around = [ink(x - 1, y), ink(x + 1, y), ink(x, y - 1), ink(x, y + 1)];
      const here = ink(x, y);
      const isInk = how === 'thin' ? here && around.every(Boolean) : here || around.some(Boolean);
      out[y * width + x] = isInk ? 0 : 255;
    }
  }
  return { width, height, data: out };
}
