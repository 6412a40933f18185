// Plate layouts and the choice between OCR reads (issue 22 item 8). Pure: the server
// (server/ocr/plate-ocr.ts) and the browser (web/lib/plate-ocr.ts) choose alike.
//
// A plate is read several times (passes over differently prepared pictures of its row); each
// read is fitted to the common plate layouts, where a letter read in a digit's place (or the
// reverse) is swapped for its look-alike (0↔O, 1↔I, 2↔Z, 5↔S, 6↔G, 8↔B; 4 → A and 7 → Z in a letter slot, D and Q → 0 in a digit slot; an A or a T in a digit slot is no misread: CFC 21A stays), and the reads are
// pooled: a plate gains Tesseract's confidence for every pass that reads it, and more when it fits
// a layout as read (fewer swaps, more). Reads that fit no layout still count (plates of other
// countries, personal plates), they just rank below a layout-valid read of the same picture.
import { isPlausiblePlate, normalisePlate } from './plate-match';

/**
 * L a letter, D a digit, a space between groups. British (current, prefix, suffix, older),
 * and the common continental shapes (AB 123 CD, ABC 123, ABC 1234).
 */
export const PLATE_LAYOUTS = ['LLDD LLL', 'LDDD LLL', 'LLL DDDL', 'LLL DDD', 'LLL DDDD', 'LL DDD LL'] as const;

/** Digits OCR gives for letters of like shape, and the reverse. */
const AS_LETTER: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '2': 'Z', '4': 'A', '5': 'S', '6': 'G', '7': 'Z', '8': 'B' };
const AS_DIGIT: Readonly<Record<string, string>> = { O: '0', D: '0', Q: '0', I: '1', Z: '2', S: '5', G: '6', B: '8' };

const slotsOf = (layout: string) => layout.replace(/ /g, '');

/** The plate with its groups spaced as the layout has them ('AB12CDE', 'LLDD LLL' → 'AB12 CDE'). */
export function spaceAsLayout(plate: string, layout: string): string {
  let at = 0;
  return [...layout].map((slot) => (slot === ' ' ? ' ' : plate[at++]!)).join('');
}

export type LayoutFit = { plate: string; layout: string; swaps: number };

/** The read fitted to a layout (letters in letter slots, digits in digit slots, look-alikes swapped), or null. */
export function fitLayout(read: string, layout: string): LayoutFit | null {
  const plate = normalisePlate(read);
  const slots = slotsOf(layout);
  if (plate.length !== slots.length) return null;
  let swaps = 0;
  let fitted = '';
  for (let i = 0; i < slots.length; i++) {
    const ch = plate[i]!;
    const isDigit = ch >= '0' && ch <= '9';
    const wantsDigit = slots[i] === 'D';
    if (isDigit === wantsDigit) {
      fitted += ch;
      continue;
    }
    const swapped = wantsDigit ? AS_DIGIT[ch] : AS_LETTER[ch];
    if (!swapped) return null;
    fitted += swapped;
    swaps++;
  }
  return { plate: fitted, layout, swaps };
}

/** The read's best fit over all layouts (fewest swaps; the list order breaks ties), or null. */
export function bestLayoutFit(read: string): LayoutFit | null {
  let best: LayoutFit | null = null;
  for (const layout of PLATE_LAYOUTS) {
    const fit = fitLayout(read, layout);
    if (fit && (!best || fit.swaps < best.swaps)) best = fit;
  }
  return best;
}

/** Whether the plate is one of the layouts exactly as it stands (no swap needed). */
export function isLayoutPlate(plate: string): boolean {
  return bestLayoutFit(plate)?.swaps === 0;
}

/** One pass' read: the text Tesseract gave (one line) and its confidence, 0–100. */
export type PassRead = { text: string; confidence: number };

/** A plate the reads support: its score, how many reads gave it, its layout, and the best of those reads' confidences. */
export type ChosenPlate = { plate: string; score: number; passes: number; layout: string | null; confidence: number };

/** Weight of a read fitting a layout as read; each swap costs SWAP_COST of it. */
const LAYOUT_BONUS = 60;
const SWAP_COST = 15;
/** A read of another length than the row's count of characters (when known) lost or invented one: it counts a tenth. */
const WRONG_LENGTH_WEIGHT = 0.1;

/**
 * The plates the reads support, best first. Each read gives one plate: its best layout fit if it
 * has one (swaps applied), else the read as it is, if it looks like a plate. A plate's score is
 * the sum over the reads giving it of (confidence + LAYOUT_BONUS − SWAP_COST × swaps when it
 * fits), a tenth of that when the row's character count is known and the plate has not that
 * many: agreement between passes, confidence, layout validity and length together.
 */
export function choosePlate(reads: readonly PassRead[], expectedLength: number | null = null): ChosenPlate[] {
  const pooled = new Map<string, ChosenPlate>();
  for (const { text, confidence } of reads) {
    const read = normalisePlate(text);
    const fit = bestLayoutFit(read);
    const plate = fit ? fit.plate : read;
    // A fit must still look like a plate: stripes read 'IIIIII' fit 'LLL DDD' as 'III111'. A
    // plate of look-alikes only ('BO51 SZI') passes with three different characters or more.
    if (fit ? !isPlausiblePlate(plate) && new Set(plate).size < 3 : !isPlausiblePlate(read)) continue;
    const weight = expectedLength === null || plate.length === expectedLength ? 1 : WRONG_LENGTH_WEIGHT;
    const score = weight * (Math.max(0, confidence) + (fit ? Math.max(0, LAYOUT_BONUS - SWAP_COST * fit.swaps) : 0));
    const entry = pooled.get(plate) ?? { plate, score: 0, passes: 0, layout: fit?.layout ?? null, confidence: 0 };
    entry.score += score;
    entry.passes++;
    entry.confidence = Math.max(entry.confidence, confidence);
    pooled.set(plate, entry);
  }
  return [...pooled.values()].sort((a, b) => b.score - a.score);
}


/** A character's shape as domain/plate-image.ts measures it (see CharacterShape there). */
export type ShapeHint = { aspect: number; topLean: number };

/** A 1's flag leans its top this far left of its foot (in character heights); an I's does not. */
const ONE_LEAN = 0.06;
const I_LEAN = 0.03;
/** An O is this much wider than the plate's digits; a 0 as wide as they are. */
const O_WIDER = 1.2;
const ZERO_WIDER = 1.04;

/** What the shape at `slot` says it is, between the look-alikes `a` and `b`, or null when it cannot tell. */
function shapeSays(plate: string, slot: number, pair: string, shapes: readonly ShapeHint[]): string | null {
  const shape = shapes[slot]!;
  if (pair === '1I') return shape.topLean >= ONE_LEAN ? '1' : shape.topLean <= I_LEAN ? 'I' : null;
  if (pair === '0O') {
    // Against the other digits of the plate (not a 1: narrow in most typefaces).
    const digits = [...plate].map((ch, i) => ({ ch, i })).filter(({ ch, i }) => i !== slot && ch >= '0' && ch <= '9' && ch !== '1').map(({ i }) => shapes[i]!.aspect);
    if (digits.length === 0) return null;
    const ratio = shape.aspect / digits.sort((x, y) => x - y)[Math.floor(digits.length / 2)]!;
    return ratio >= O_WIDER ? 'O' : ratio <= ZERO_WIDER ? '0' : null;
  }
  return null;
}

/**
 * When the chosen plate also fits another layout with one look-alike swapped (NLD 8591 or NLD 859I,
 * QO00 TDF or Q000 TDF), the characters' shapes settle it: a 1 has a flag, an I has none; an O is
 * wider than the plate's digits, a 0 is not. Other look-alikes, or shapes that cannot tell, keep the
 * plate as chosen. `shapes` must be one per character of the plate.
 */
export function settleLookAlikes(plate: string, shapes: readonly ShapeHint[]): string {
  if (shapes.length !== plate.length) return plate;
  const alternatives = [plate, ...PLATE_LAYOUTS.map((layout) => fitLayout(plate, layout)).filter((fit): fit is LayoutFit => fit !== null && fit.swaps === 1).map((fit) => fit.plate)];
  let best = plate;
  let bestScore = 0;
  for (const alternative of new Set(alternatives)) {
    let score = 0;
    for (let slot = 0; slot < plate.length; slot++) {
      if (alternative[slot] === plate[slot] && alternatives.every((other) => other[slot] === plate[slot])) continue;
      const pair = [alternative[slot]!, ...alternatives.map((other) => other[slot]!)].filter((ch, i, all) => all.indexOf(ch) === i).sort().join('');
      const says = shapeSays(plate, slot, pair, shapes);
      if (says === alternative[slot]) score++;
      else if (says !== null) score--;
    }
    if (score > bestScore) {
      best = alternative;
      bestScore = score;
    }
  }
  return best;
}
