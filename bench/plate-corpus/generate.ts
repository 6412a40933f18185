// The plate corpus (issue 22 item 8): number plates drawn in the DejaVu typefaces of the Debian
// package fonts-dejavu-core (Sans, Sans Bold, Sans Mono, Sans Mono Bold, Serif, Serif Bold; found
// by fontconfig through sharp's SVG renderer, nothing downloaded), at several character heights,
// tilts, noise levels, plate colours and blur, some saved as JPEG. Deterministic: a seeded random
// stream picks the plates and the conditions, so running it again writes the same pictures.
// The pictures and their truth (truth.json) are committed beside this file, so the bench
// (bench/plate-ocr-corpus.ts) and the test (server/ocr/plate-corpus.test.ts) do not depend on the
// fonts being installed.
// Regenerate: npx tsx bench/plate-corpus/generate.ts
// A held-out corpus (other plates and conditions, same recipe; not committed), to check the reader
// was not fitted to the committed pictures: npx tsx bench/plate-corpus/generate.ts --seed 7 --out /tmp/plates-7
// then npx tsx bench/plate-ocr-corpus.ts --corpus /tmp/plates-7
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = path.dirname(fileURLToPath(import.meta.url));
const FONT_FILES = '/usr/share/fonts/truetype/dejavu';

export type CorpusEntry = {
  file: string;
  /** The plate as printed (groups separated by one space). */
  plate: string;
  typeface: string;
  /** Capital height in pixels before any tilt. */
  charHeight: number;
  /** Degrees, clockwise. */
  tilt: number;
  /** Amplitude of the added pixel noise (0–255 scale). */
  noise: number;
  blur: number;
  plateStyle: string;
  format: 'png' | 'jpeg';
};

export const TYPEFACES = [
  { name: 'sans', family: 'DejaVu Sans', weight: 'normal', file: 'DejaVuSans.ttf' },
  { name: 'sans-bold', family: 'DejaVu Sans', weight: 'bold', file: 'DejaVuSans-Bold.ttf' },
  { name: 'mono', family: 'DejaVu Sans Mono', weight: 'normal', file: 'DejaVuSansMono.ttf' },
  { name: 'mono-bold', family: 'DejaVu Sans Mono', weight: 'bold', file: 'DejaVuSansMono-Bold.ttf' },
  { name: 'serif', family: 'DejaVu Serif', weight: 'normal', file: 'DejaVuSerif.ttf' },
  { name: 'serif-bold', family: 'DejaVu Serif', weight: 'bold', file: 'DejaVuSerif-Bold.ttf' },
] as const;

/** Plates per typeface. */
const PER_TYPEFACE = 16;
/** Layouts the random plates follow (L letter, D digit): common European and British shapes. */
const LAYOUTS = ['LLDD LLL', 'LLDD LLL', 'LLL DDD', 'LLL DDDL', 'LDDD LLL', 'LL DDD LL', 'LLL DDDD'];
/** Plates every typeface draws: the misread, and the letters OCR confuses with digits. */
const FIXED = ['ZZZ 999', 'BO51 SZI', 'OIS 805'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const CHAR_HEIGHTS = [18, 24, 32, 44, 60];
const TILTS = [-6, -4, -2, 0, 0, 2, 4, 6];
const NOISE = [0, 12, 24, 40];
const BLUR = [0, 0, 0.6, 1];
const STYLES = [
  { name: 'white', background: '#f4f4f0', ink: '#151515' },
  { name: 'yellow', background: '#f2c200', ink: '#151515' },
  { name: 'dark', background: '#1d1f22', ink: '#e8e8e8' },
  { name: 'grey-dirty', background: '#b9b9b2', ink: '#2a2a2a' },
];
/** DejaVu capitals are 0.729 em high. */
const CAP_HEIGHT_EM = 0.729;

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: ArrayLike<T>): T => items[Math.floor(random() * items.length)]!;

function randomPlate(random: () => number): string {
  return [...pick(random, LAYOUTS)].map((slot) => (slot === 'L' ? pick(random, LETTERS) : slot === 'D' ? pick(random, DIGITS) : ' ')).join('');
}

function plateSvg(plate: string, typeface: (typeof TYPEFACES)[number], charHeight: number, style: (typeof STYLES)[number]): string {
  const fontSize = charHeight / CAP_HEIGHT_EM;
  const pad = charHeight * 0.6;
  // Generous: the widest capitals are ~0.8 em; the plate is cut to its ink later anyway.
  const width = Math.round(plate.length * fontSize * 0.72 + 2 * pad);
  const height = Math.round(charHeight + 2 * pad);
  const border = Math.max(1, charHeight * 0.06);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" rx="${pad * 0.4}" fill="${style.background}"/>` +
    `<rect x="${pad * 0.25}" y="${pad * 0.25}" width="${width - pad * 0.5}" height="${height - pad * 0.5}" rx="${pad * 0.3}" fill="none" stroke="${style.ink}" stroke-width="${border}"/>` +
    `<text x="${width / 2}" y="${pad + charHeight}" text-anchor="middle" font-family="${typeface.family}" font-weight="${typeface.weight}" ` +
    `font-size="${fontSize.toFixed(2)}" fill="${style.ink}" xml:space="preserve">${plate}</text></svg>`
  );
}

async function drawEntry(entry: CorpusEntry, seed: number): Promise<Buffer> {
  const typeface = TYPEFACES.find((t) => t.name === entry.typeface)!;
  const style = STYLES.find((s) => s.name === entry.plateStyle)!;
  const plate = await sharp(Buffer.from(plateSvg(entry.plate, typeface, entry.charHeight, style))).png().toBuffer();
  // The plate on a bumper-grey surround, tilted, then noise and blur like a cheap camera.
  const margin = Math.round(entry.charHeight * 1.5);
  let picture = sharp(plate)
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#6b6f73' })
    .rotate(entry.tilt, { background: '#6b6f73' })
    .flatten({ background: '#6b6f73' })
    .toColourspace('b-w');
  if (entry.blur > 0) picture = picture.blur(entry.blur + 0.3);
  const { data, info } = await picture.raw().toBuffer({ resolveWithObject: true });
  const random = mulberry32(seed);
  if (entry.noise > 0) {
    for (let i = 0; i < data.length; i++) {
      // Sum of three uniforms: roughly normal sensor noise.
      const n = (random() + random() + random() - 1.5) * (entry.noise / 1.5) * 2;
      data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + n)));
    }
  }
  const out = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return entry.format === 'jpeg' ? out.jpeg({ quality: 75 }).toBuffer() : out.png({ compressionLevel: 9 }).toBuffer();
}

/** The committed corpus' seed. */
export const CORPUS_SEED = 20_261_127;

/** The corpus' entries (without drawing them): the same list on every run for a seed. */
export function corpusEntries(seed = CORPUS_SEED): CorpusEntry[] {
  const random = mulberry32(seed);
  const entries: CorpusEntry[] = [];
  for (const typeface of TYPEFACES) {
    for (let i = 0; i < PER_TYPEFACE; i++) {
      const plate = i < FIXED.length ? FIXED[i]! : randomPlate(random);
      const entry: Omit<CorpusEntry, 'file'> = {
        plate,
        typeface: typeface.name,
        charHeight: pick(random, CHAR_HEIGHTS),
        tilt: pick(random, TILTS),
        noise: pick(random, NOISE),
        blur: pick(random, BLUR),
        plateStyle: pick(random, STYLES).name,
        format: 'png',
      };
      // Noisy pictures are camera-like JPEGs (a noisy PNG is large); a third of the clean ones too.
      if (entry.noise > 0 || random() < 0.3) entry.format = 'jpeg';
      const n = String(entries.length + 1).padStart(3, '0');
      entries.push({ ...entry, file: `${n}-${typeface.name}-${plate.replace(/ /g, '')}.${entry.format === 'jpeg' ? 'jpg' : 'png'}` });
    }
  }
  return entries;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const typeface of TYPEFACES) {
    if (!fs.existsSync(path.join(FONT_FILES, typeface.file))) {
      throw new Error(`${typeface.file} is missing: install the Debian package fonts-dejavu-core`);
    }
  }
  const option = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const seed = Number(option('--seed') ?? CORPUS_SEED);
  const outDir = path.resolve(option('--out') ?? here);
  if (outDir === here && seed !== CORPUS_SEED) throw new Error('Another seed writes a held-out corpus: give it --out <folder>');
  const outImages = path.join(outDir, 'images');
  fs.rmSync(outImages, { recursive: true, force: true });
  fs.mkdirSync(outImages, { recursive: true });
  const entries = corpusEntries(seed);
  for (const [index, entry] of entries.entries()) {
    // The committed corpus' noise seeds are 1000 + index; a held-out one's differ too.
    fs.writeFileSync(path.join(outImages, entry.file), await drawEntry(entry, (seed === CORPUS_SEED ? 1_000 : seed) + index));
  }
  fs.writeFileSync(path.join(outDir, 'truth.json'), `${JSON.stringify(entries, null, 1)}\n`);
  console.log(`${entries.length} plates written to ${path.relative(process.cwd(), outImages) || outImages}`);
}
