import zlib from 'node:zlib';
import yauzl from 'yauzl';

// Active content in an uploaded file (decision 028, after 006): what a browser or a PDF reader
// would run, found two ways.
//
// 1. A byte scan of every file as it streams in (markupScanner): HTML or SVG markup written in
//    ASCII or in UTF-16 (either byte order), and a Word 97 macro project.
// 2. A look inside the format (findActiveContentIn), once the file is whole:
//    - PDF: every dictionary a reader would interpret — the plain text between streams, and the
//      inflated content of object streams (FlateDecode, ASCIIHex, ASCII85, PNG predictors) —
//      for the action and attachment keys (/JavaScript, /JS, /AA, /Launch, /EmbeddedFile(s),
//      /RichMedia, /XFA), with name escapes decoded (/J#61vaScript is /JavaScript). An object
//      stream that cannot be decoded, or an encrypted file with object streams, cannot be checked
//      and is refused.
//    - PNG: nothing but padding after IEND, and no markup in compressed text chunks.
//    - DOCX: the zip's central directory and the real inflated sizes — at most 1,000 entries,
//      100 MB in all, no entry inflating more than 100 times its size past 1 MB — and no macro
//      project or ActiveX part.

/** Markup a browser would render or run, as ASCII (any case, spaces after '<'). */
const MARKUP = /<\s*(?:html|script|svg|iframe|object|embed|body)\b/;
const MARKUP_WORDS = ['html', 'script', 'svg', 'iframe', 'object', 'embed', 'body'];
/** The same words in UTF-16: each letter followed (LE) or preceded (BE) by a NUL byte. */
const utf16 = (text: string, order: 'le' | 'be') => [...text].map((c) => (order === 'le' ? `${c}\0` : `\0${c}`)).join('');
const MARKUP_UTF16 = new RegExp(
  (['le', 'be'] as const).map((order) => `${utf16('<', order)}(?:${MARKUP_WORDS.map((w) => utf16(w, order)).join('|')})`).join('|'),
);
/** A macro project in a Word 97 file: its stream name in UTF-16. */
const VBA_PROJECT = new RegExp(utf16('_vba_project', 'le'));
const LONGEST_PATTERN = 40;

/** Scans a stream chunk by chunk, across chunk boundaries, for markup (ASCII or UTF-16) and Word macros. */
export function markupScanner() {
  let tail = '';
  let found = false;
  return {
    push(chunk: Buffer) {
      if (found) return;
      const text = tail + chunk.toString('latin1').toLowerCase();
      found = MARKUP.test(text) || MARKUP_UTF16.test(text) || VBA_PROJECT.test(text);
      tail = text.slice(-LONGEST_PATTERN);
    },
    get hasActiveContent() {
      return found;
    },
  };
}

export type ActiveContentKind = 'pdf' | 'png' | 'docx' | 'other';

/**
 * Why a file is refused: 'active' when it holds something that would run (scripts, markup,
 * macros, attached files), 'unchecked' when it cannot be checked safely (a zip bomb, an object
 * stream that cannot be decoded); `reason` says what was found.
 */
export type Refusal = { verdict: 'active' | 'unchecked'; reason: string };

const active = (reason: string): Refusal => ({ verdict: 'active', reason });
const unchecked = (reason: string): Refusal => ({ verdict: 'unchecked', reason });

/** What is wrong with the whole file, or null when nothing active was found. */
export async function findActiveContentIn(kind: ActiveContentKind, data: Buffer): Promise<Refusal | null> {
  if (kind === 'pdf') return pdfActiveContent(data);
  if (kind === 'png') return pngActiveContent(data);
  if (kind === 'docx') return docxActiveContent(data);
  return null;
}

// ── PDF ─────────────────────────────────────────────────────────────────────────────────────────

/** Keys that make a reader run something, open something, or carry a file inside. */
const PDF_ACTIVE_KEYS = new Set(['JavaScript', 'JS', 'AA', 'Launch', 'EmbeddedFile', 'EmbeddedFiles', 'RichMedia', 'XFA']);
/** A PDF name: '/' and its regular characters (delimiters and white space end it). */
const PDF_NAME = /\/[^\s/<>[\]()%{}]*/g;
/** All the object streams of one file may inflate to this much; beyond it the file is not checked but refused. */
const PDF_INFLATE_BUDGET = 64 * 1024 * 1024;

const decodeName = (name: string) => name.replace(/#([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The active keys named in some PDF text (dictionaries), escapes decoded. */
function activeKeysIn(text: string): string[] {
  const found = new Set<string>();
  for (const [name] of text.matchAll(PDF_NAME)) {
    const key = decodeName(name.slice(1));
    if (PDF_ACTIVE_KEYS.has(key)) found.add(key);
  }
  return [...found];
}

type PdfStream = { dictionary: string; start: number; end: number };

/** Where the `N G obj` holding a position starts ('endobj' is not one), at most 8 KB back. */
function objectHeaderBefore(text: string, position: number): number {
  const floor = Math.max(0, position - 8192);
  for (let at = text.lastIndexOf('obj', position); at >= floor; at = text.lastIndexOf('obj', at - 1)) {
    if (text.slice(at - 3, at) !== 'end') return at + 3;
  }
  return floor;
}

/** Every `<<…>> stream … endstream` of the file: its dictionary (names decoded) and where its data lies. */
function pdfStreams(text: string): PdfStream[] {
  const streams: PdfStream[] = [];
  const keyword = /stream(?:\r\n|\n|\r)/g;
  let searchFrom = 0;
  for (;;) {
    keyword.lastIndex = searchFrom;
    const match = keyword.exec(text);
    if (!match) break;
    // 'endstream' also ends in 'stream': only a keyword after a dictionary opens a stream.
    if (!/>>\s*$/.test(text.slice(Math.max(0, match.index - 64), match.index))) {
      searchFrom = match.index + 6;
      continue;
    }
    const dictionary = text.slice(objectHeaderBefore(text, match.index), match.index).replace(PDF_NAME, decodeName);
    const start = match.index + match[0].length;
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
    let end = length ? start + Number(length[1]) : -1;
    if (end < 0 || end > text.length || !/^\s*endstream/.test(text.slice(end, end + 32))) {
      end = text.indexOf('endstream', start);
      if (end < 0) end = text.length;
    }
    streams.push({ dictionary, start, end });
    searchFrom = end;
  }
  return streams;
}

const filtersOf = (dictionary: string): string[] => {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()%{}]+)/.exec(dictionary);
  return filter ? [...filter[1]!.matchAll(/\/([^\s/<>[\]()%{}]+)/g)].map((m) => m[1]!) : [];
};

function asciiHexDecode(data: Buffer): Buffer {
  const hex = data.toString('latin1').replace(/\s+/g, '').replace(/>.*$/s, '');
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
}

function ascii85Decode(data: Buffer): Buffer {
  const text = data.toString('latin1').replace(/\s+/g, '').replace(/^<~/, '').replace(/~>.*$/s, '');
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    const value = group.reduce((acc, digit) => acc * 85 + digit, 0);
    const bytes = [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
    out.push(...bytes.slice(0, count));
    group = [];
  };
  for (const char of text) {
    if (char === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const digit = char.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) throw new Error('bad ASCII85');
    group.push(digit);
    if (group.length === 5) flush(4);
  }
  if (group.length > 0) flush(group.length - 1);
  return Buffer.from(out);
}

/** Undoes the PNG predictors (10–15) of a FlateDecode stream, one byte per sample unless told otherwise. */
function undoPngPredictor(data: Buffer, dictionary: string): Buffer {
  const columns = Number(/\/Columns\s+(\d+)/.exec(dictionary)?.[1] ?? 1);
  const colors = Number(/\/Colors\s+(\d+)/.exec(dictionary)?.[1] ?? 1);
  const bits = Number(/\/BitsPerComponent\s+(\d+)/.exec(dictionary)?.[1] ?? 8);
  const bpp = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowLength = Math.ceil((columns * colors * bits) / 8);
  const rows: Buffer[] = [];
  let previous = Buffer.alloc(rowLength);
  for (let offset = 0; offset + 1 + rowLength <= data.length; offset += 1 + rowLength) {
    const type = data[offset]!;
    const row = Buffer.from(data.subarray(offset + 1, offset + 1 + rowLength));
    for (let i = 0; i < rowLength; i++) {
      const left = i >= bpp ? row[i - bpp]! : 0;
      const up = previous[i]!;
      const upLeft = i >= bpp ? previous[i - bpp]! : 0;
      if (type === 1) row[i] = (row[i]! + left) & 255;
      else if (type === 2) row[i] = (row[i]! + up) & 255;
      else if (type === 3) row[i] = (row[i]! + ((left + up) >> 1)) & 255;
      else if (type === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        row[i] = (row[i]! + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft)) & 255;
      }
    }
    rows.push(row);
    previous = row;
  }
  return Buffer.concat(rows);
}

/** The decoded bytes of a stream, or null when a filter is one we cannot undo. */
function decodeStream(raw: Buffer, dictionary: string, budget: { left: number }): Buffer | null {
  let data = raw;
  for (const filter of filtersOf(dictionary)) {
    if (filter === 'FlateDecode' || filter === 'Fl') {
      const maxOutputLength = Math.max(1, budget.left);
      try {
        data = zlib.inflateSync(data, { maxOutputLength, finishFlush: zlib.constants.Z_SYNC_FLUSH });
      } catch {
        // Some writers omit the zlib header: try raw deflate before giving up.
        data = zlib.inflateRawSync(data, { maxOutputLength, finishFlush: zlib.constants.Z_SYNC_FLUSH });
      }
      budget.left -= data.length;
      const predictor = Number(/\/Predictor\s+(\d+)/.exec(dictionary)?.[1] ?? 1);
      if (predictor >= 10) data = undoPngPredictor(data, dictionary);
      else if (predictor > 1) return null;
    } else if (filter === 'ASCIIHexDecode' || filter === 'AHx') {
      data = asciiHexDecode(data);
    } else if (filter === 'ASCII85Decode' || filter === 'A85') {
      data = ascii85Decode(data);
    } else {
      return null;
    }
  }
  return data;
}

/** A stream a reader may parse objects from: declared an object stream, or shaped like one (/N and /First). */
const isObjectStream = (dictionary: string) => /\/Type\s*\/ObjStm\b/.test(dictionary) || (/\/N\s/.test(dictionary) && /\/First\s/.test(dictionary));

function pdfActiveContent(data: Buffer): Refusal | null {
  const text = data.toString('latin1');
  const streams = pdfStreams(text);
  // Everything a reader reads as objects outside streams (stream dictionaries included).
  let outside = '';
  let from = 0;
  for (const stream of streams) {
    outside += text.slice(from, stream.start);
    from = stream.end;
  }
  outside += text.slice(from);
  const plain = activeKeysIn(outside);
  if (plain.length > 0) return active(`the PDF holds ${plain.map((k) => `/${k}`).join(', ')}`);
  const objectStreams = streams.filter((s) => isObjectStream(s.dictionary));
  if (objectStreams.length > 0 && /\/Encrypt\b/.test(outside)) return unchecked('the PDF is encrypted and its compressed objects cannot be checked');
  const budget = { left: PDF_INFLATE_BUDGET };
  for (const stream of objectStreams) {
    let decoded: Buffer | null;
    try {
      decoded = decodeStream(data.subarray(stream.start, stream.end), stream.dictionary, budget);
    } catch {
      decoded = null;
    }
    if (!decoded || budget.left <= 0) return unchecked('the PDF has compressed objects that cannot be checked');
    const hidden = activeKeysIn(decoded.toString('latin1'));
    if (hidden.length > 0) return active(`the PDF holds ${hidden.map((k) => `/${k}`).join(', ')} in a compressed object stream`);
  }
  return null;
}

// ── PNG ─────────────────────────────────────────────────────────────────────────────────────────

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A compressed text chunk may inflate to this much; more is refused. */
const PNG_TEXT_LIMIT = 1024 * 1024;

function pngActiveContent(data: Buffer): Refusal | null {
  if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) return null; // not a PNG: the type check answers
  let offset = 8;
  for (;;) {
    if (offset + 12 > data.length) return unchecked('the PNG is cut off or malformed');
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (offset + 12 + length > data.length) return unchecked('the PNG is cut off or malformed');
    offset += 12 + length;
    if (type === 'IEND') break;
    if (type === 'zTXt' || type === 'iTXt') {
      const text = pngTextOf(type, body);
      if (text === null) return unchecked('the PNG has a compressed text chunk that cannot be checked');
      const scanner = markupScanner();
      scanner.push(text);
      if (scanner.hasActiveContent) return active('the PNG holds markup in a text chunk');
    }
  }
  // After IEND a viewer stops; a browser sniffing the file does not. Only padding may follow.
  const trailing = data.subarray(offset);
  if (trailing.some((byte) => byte !== 0 && byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09)) {
    return active('the PNG has other content after the end of the image');
  }
  return null;
}

/** The text of a zTXt or iTXt chunk (inflated when compressed), or null when it cannot be read. */
function pngTextOf(type: 'zTXt' | 'iTXt', body: Buffer): Buffer | null {
  const keywordEnd = body.indexOf(0);
  if (keywordEnd < 0) return null;
  try {
    if (type === 'zTXt') return zlib.inflateSync(body.subarray(keywordEnd + 2), { maxOutputLength: PNG_TEXT_LIMIT });
    const compressed = body[keywordEnd + 1] === 1;
    let rest = body.subarray(keywordEnd + 3);
    for (let i = 0; i < 2; i++) rest = rest.subarray(rest.indexOf(0) + 1); // language tag, translated keyword
    return compressed ? zlib.inflateSync(rest, { maxOutputLength: PNG_TEXT_LIMIT }) : rest;
  } catch {
    return null;
  }
}

// ── DOCX ────────────────────────────────────────────────────────────────────────────────────────

export const DOCX_LIMITS = {
  entries: 1000,
  totalBytes: 100 * 1024 * 1024,
  /** An entry may inflate to this many times its compressed size… */
  ratio: 100,
  /** …once it is bigger than this (small XML parts compress very well). */
  ratioFloorBytes: 1024 * 1024,
} as const;

/** Parts that hold code Word would run: a macro project, ActiveX controls. */
const DOCX_CODE_PARTS = /(?:^|\/)vbaProject\.bin$|(?:^|\/)activeX\//i;

const UNREADABLE_ZIP = 'the DOCX is not a readable zip archive';
const ZIP_BOMB = 'the DOCX expands to far more than its size (a zip bomb?)';

function docxActiveContent(data: Buffer): Promise<Refusal | null> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (openError, zip) => {
      if (openError || !zip) return resolve(unchecked(UNREADABLE_ZIP));
      let entries = 0;
      let total = 0;
      let settled = false;
      const done = (refusal: Refusal | null) => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve(refusal);
      };
      zip.on('error', () => done(unchecked(UNREADABLE_ZIP)));
      zip.on('end', () => done(null));
      zip.on('entry', (entry: yauzl.Entry) => {
        entries += 1;
        if (entries > DOCX_LIMITS.entries) return done(unchecked(`the DOCX has more than ${DOCX_LIMITS.entries} parts (a zip bomb?)`));
        if (DOCX_CODE_PARTS.test(entry.fileName)) return done(active('the DOCX holds macros or ActiveX controls'));
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        // What the directory says first: a declared size or ratio past the limits is refused unread.
        const declaredTooBig = (size: number) =>
          total + size > DOCX_LIMITS.totalBytes ||
          (size > DOCX_LIMITS.ratioFloorBytes && size > DOCX_LIMITS.ratio * Math.max(1, entry.compressedSize));
        if (declaredTooBig(entry.uncompressedSize)) return done(unchecked(ZIP_BOMB));
        // Then what the entry really inflates to: the directory may lie (yauzl checks the sizes match).
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return done(unchecked(UNREADABLE_ZIP));
          let inflated = 0;
          stream.on('data', (chunk: Buffer) => {
            inflated += chunk.length;
            if (declaredTooBig(inflated)) {
              stream.destroy();
              done(unchecked(ZIP_BOMB));
            }
          });
          stream.on('error', () => done(unchecked(UNREADABLE_ZIP)));
          stream.on('end', () => {
            total += inflated;
            if (!settled) zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
