import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import { docxArchive, pdfWithObject, pdfWithObjectStream, PDF_BYTES, PNG_BYTES } from '../test/files';
import { DOCX_LIMITS, findActiveContentIn, markupScanner } from './active-content';

// Active content hidden where a byte scan does not look (issue 21 item 6, decision 028), in real
// crafted files: JavaScript in a compressed object stream or behind name escapes, a PNG followed
// by HTML or UTF-16 script, a DOCX zip bomb — and the plain files still accepted.

const utf16le = (text: string) => Buffer.from(text, 'utf16le');
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
const scan = (data: Buffer) => {
  const scanner = markupScanner();
  scanner.push(data);
  return scanner.hasActiveContent;
};

describe('PDF', () => {
  it('accepts a plain PDF and one whose object stream holds harmless objects', async () => {
    expect(await findActiveContentIn('pdf', PDF_BYTES)).toBeNull();
    expect(await findActiveContentIn('pdf', pdfWithObjectStream('<</S/GoTo/D[0/Fit]>>'))).toBeNull();
    expect(await findActiveContentIn('pdf', pdfWithObject('<</S/URI/URI(https://example.test/jsdoc)>>'))).toBeNull();
  });

  it('refuses JavaScript hidden in a FlateDecode object stream (and one not declared /ObjStm, and ASCIIHex)', async () => {
    const script = '<</S/JavaScript/JS(app.alert(1))>>';
    for (const pdf of [pdfWithObjectStream(script), pdfWithObjectStream(script, 'ASCIIHexDecode'), pdfWithObjectStream(script, 'FlateDecode', '')]) {
      expect(pdf.includes('JavaScript')).toBe(false); // nothing for a byte scan to see
      expect(await findActiveContentIn('pdf', pdf)).toEqual({ verdict: 'active', reason: 'the PDF holds /JavaScript, /JS in a compressed object stream' });
    }
  });

  it('refuses names written with # escapes: /J#61vaScript, /#4A#53, /#41#41, an escaped /Launch', async () => {
    const cases: Array<[string, string]> = [
      ['<</S/J#61vaScript/JS(app.alert(1))>>', '/JavaScript, /JS'],
      ['<</S/GoTo/#4A#53(app.alert(1))>>', '/JS'],
      ['<</Type/Page/#41#41<</O<</S/GoTo/D[0/Fit]>>>>>>', '/AA'],
      ['<</S/L#61unch/F(calc.exe)>>', '/Launch'],
      ['<</Names<</Embedded#46iles 5 0 R>>>>', '/EmbeddedFiles'],
    ];
    for (const [object, keys] of cases) {
      expect(await findActiveContentIn('pdf', pdfWithObject(object)), object).toEqual({ verdict: 'active', reason: `the PDF holds ${keys}` });
    }
    // The same escapes inside a compressed object stream, with the stream's own type escaped.
    expect(await findActiveContentIn('pdf', pdfWithObjectStream('<</S/J#61vaScript/J#53(x)>>', 'FlateDecode', '/Type/Obj#53tm'))).toMatchObject({ verdict: 'active' });
  });

  it('refuses an object stream it cannot decode, and an encrypted file with object streams', async () => {
    const lzw = pdfWithObjectStream('<</S/GoTo/D[0/Fit]>>', 'none').toString('latin1').replace('/Type/ObjStm/N 1', '/Type/ObjStm/Filter/LZWDecode/N 1');
    expect(await findActiveContentIn('pdf', Buffer.from(lzw, 'latin1'))).toEqual({ verdict: 'unchecked', reason: 'the PDF has compressed objects that cannot be checked' });
    const encrypted = Buffer.from(pdfWithObjectStream('<</S/GoTo/D[0/Fit]>>').toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R/Encrypt 9 0 R'), 'latin1');
    expect(await findActiveContentIn('pdf', encrypted)).toMatchObject({ verdict: 'unchecked' });
  });
});

describe('PNG', () => {
  it('accepts a plain PNG, and one padded with NUL bytes', async () => {
    expect(await findActiveContentIn('png', PNG_BYTES)).toBeNull();
    expect(await findActiveContentIn('png', Buffer.concat([PNG_BYTES, Buffer.alloc(16)]))).toBeNull();
  });

  it('refuses a PNG followed by HTML, by UTF-16 <script> (either byte order) or by anything else', async () => {
    for (const tail of [Buffer.from('<html><script>alert(1)</script>'), utf16le('<script>alert(1)</script>'), utf16be('<script>alert(1)</script>'), Buffer.from('PK\x03\x04 a zip')]) {
      expect(await findActiveContentIn('png', Buffer.concat([PNG_BYTES, tail]))).toEqual({ verdict: 'active', reason: 'the PNG has other content after the end of the image' });
    }
  });

  it('finds UTF-16 markup in the byte scan too (any file, across chunks), and no markup in plain images', () => {
    expect(scan(utf16le('x<script>'))).toBe(true);
    expect(scan(utf16be('<SVG onload=alert(1)>'))).toBe(true);
    expect(scan(utf16le('_VBA_PROJECT'))).toBe(true);
    const split = markupScanner();
    const bytes = utf16le('..<iframe src=x>');
    split.push(bytes.subarray(0, 7));
    split.push(bytes.subarray(7));
    expect(split.hasActiveContent).toBe(true);
    expect(scan(PNG_BYTES)).toBe(false);
    // Binary that happens to hold "/JS " is not a PDF key outside a PDF: a photo is not refused for it.
    expect(scan(Buffer.from('\xff\xd8\xff\xe0/JS /AA /Launch', 'latin1'))).toBe(false);
  });
});

describe('DOCX', () => {
  it('accepts a plain Word document, detected as DOCX', async () => {
    const docx = docxArchive();
    expect((await fileTypeFromBuffer(docx))?.ext).toBe('docx');
    expect(await findActiveContentIn('docx', docx)).toBeNull();
  });

  it('refuses a zip bomb: a part inflating past the ratio, a directory that lies about sizes, too many parts, too much in all', async () => {
    const zeros = Buffer.alloc(5 * 1024 * 1024);
    const bomb = docxArchive([{ name: 'word/media/image1.png', data: zeros, deflate: true }]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await findActiveContentIn('docx', bomb)).toEqual({ verdict: 'unchecked', reason: 'the DOCX expands to far more than its size (a zip bomb?)' });
    // The directory claims 1 KB; the data inflates to 5 MB.
    const liar = docxArchive([{ name: 'word/media/image1.png', data: zeros, deflate: true, declaredSize: 1024 }]);
    expect(await findActiveContentIn('docx', liar)).toMatchObject({ verdict: 'unchecked' });
    const many = docxArchive(Array.from({ length: DOCX_LIMITS.entries }, (_, i) => ({ name: `word/part${i}.xml`, data: Buffer.from('<x/>') })));
    expect(await findActiveContentIn('docx', many)).toEqual({ verdict: 'unchecked', reason: `the DOCX has more than ${DOCX_LIMITS.entries} parts (a zip bomb?)` });
    const huge = docxArchive([{ name: 'word/media/big.bin', data: Buffer.from('x'), declaredSize: DOCX_LIMITS.totalBytes + 1 }]);
    expect(await findActiveContentIn('docx', huge)).toMatchObject({ verdict: 'unchecked' });
  });

  it('refuses a macro project or ActiveX controls inside', async () => {
    for (const name of ['word/vbaProject.bin', 'word/activeX/activeX1.xml']) {
      expect(await findActiveContentIn('docx', docxArchive([{ name, data: Buffer.from('x') }])), name).toEqual({ verdict: 'active', reason: 'the DOCX holds macros or ActiveX controls' });
    }
  });
});
