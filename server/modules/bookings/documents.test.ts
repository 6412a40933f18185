import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBay, createOrg, createSite } from '../../test/fixtures';
import { docxArchive, pdfWithObject, pdfWithObjectStream, PDF_BYTES, PNG_BYTES } from '../../test/files';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { markupScanner } from '../../uploads/active-content';
import { sanitizeFileName, uniqueFileName } from './documents';

// Documents of a portal booking: streamed, named uniquely, checked by content, active content refused.

const NOW = '2026-11-23T00:00:00Z';
const DATE = '2026-11-24';

describe('document names and content (pure)', () => {
  it('gives names that sanitise alike distinct names', () => {
    const taken = new Set<string>();
    expect(uniqueFileName(sanitizeFileName('a.pdf'), taken)).toBe('a.pdf');
    expect(uniqueFileName(sanitizeFileName('a.pdf'), taken)).toBe('a-2.pdf');
    expect(uniqueFileName(sanitizeFileName('a b.pdf'), taken)).toBe('a_b.pdf');
    expect(uniqueFileName(sanitizeFileName('a_b.pdf'), taken)).toBe('a_b-2.pdf');
    expect(uniqueFileName(sanitizeFileName('A.PDF'), taken)).toBe('A-3.pdf');
  });

  it('finds markup across chunk boundaries', () => {
    const scanner = markupScanner();
    scanner.push(Buffer.from('%PDF-1.4 ... <scr'));
    expect(scanner.hasActiveContent).toBe(false);
    scanner.push(Buffer.from('ipt>app.alert(1)</script>'));
    expect(scanner.hasActiveContent).toBe(true);
    const plain = markupScanner();
    plain.push(PDF_BYTES);
    expect(plain.hasActiveContent).toBe(false);
  });
});

describe.each(databaseKinds)('booking documents on %s', (kind) => {
  let t: TestApp;
  let orgId: string;

  const valid = (n: number) => ({
    orgId,
    tsrNumber: `TSR-DOC-${n}`,
    tenantName: 'Doc Freight',
    contactName: 'Dee Oc',
    tenantEmail: 'dee@docs.example',
    date: DATE,
    slot: `${String(8 + n).padStart(2, '0')}:00`,
    expectedDurationMin: 30,
    vehicleType: 'rigid',
    vehicleRegistration: `DOC${n}`,
    vehicleHeightM: 3.5,
    driverInductionCompleted: true,
    termsAccepted: true,
  });
  const submit = (data: unknown, files: Array<[string, Buffer]>) => {
    const form = new FormData();
    form.append('data', JSON.stringify(data));
    for (const [name, bytes] of files) form.append('documents', new Blob([new Uint8Array(bytes)]), name);
    return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
  };
  const bookingCount = async () => Number((await t.ctx.database.query<{ n: number }>('select count(*)::int as n from bookings'))[0]!.n);
  const storedFiles = () => {
    const root = path.join(t.dataDir, 'storage');
    return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((f) => String(f).includes('.')).map(String) : [];
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const org = await createOrg(t.ctx.database, { name: 'Docs Org' });
    orgId = org.id;
    const site = await createSite(t.ctx.database, org.id, { name: 'Docs Site', timeZone: 'Australia/Sydney' });
    await createBay(t.ctx.database, site, { name: 'D-1', heightClearanceM: 4.5 });
  });
  afterAll(() => t.close());

  it('answers 400 for multipart without a boundary, and books nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/public/bookings',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'data=whatever',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/boundary/);
    expect(await bookingCount()).toBe(0);
  });

  it('stores two documents whose names sanitise alike under distinct names', async () => {
    const res = await submit(valid(1), [
      ['a b.pdf', PDF_BYTES],
      ['a_b.pdf', PDF_BYTES],
      ['a b.pdf', PDF_BYTES],
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().documents).toBe(3);
    const rows = await t.ctx.database.query<{ file_name: string; size_bytes: number }>(
      'select file_name, size_bytes from booking_documents where booking_id = $1 order by file_name',
      [res.json().id],
    );
    expect(rows.map((r) => r.file_name)).toEqual(['a_b-2.pdf', 'a_b-3.pdf', 'a_b.pdf']);
    expect(rows.every((r) => r.size_bytes === PDF_BYTES.length)).toBe(true);
    expect(storedFiles().filter((f) => f.includes(res.json().id))).toHaveLength(3);
  });

  it('refuses a PDF carrying JavaScript and a PNG carrying HTML, storing nothing', async () => {
    const before = storedFiles();
    const scriptedPdf = Buffer.concat([PDF_BYTES, Buffer.from('4 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj\n')]);
    const pdfRes = await submit(valid(2), [['ok.pdf', PDF_BYTES], ['scripted.pdf', scriptedPdf]]);
    expect(pdfRes.statusCode).toBe(400);
    expect(pdfRes.json().error.message).toBe(
      'Failed to upload scripted.pdf: the file contains active content (scripts, HTML, macros or embedded files) and was refused',
    );
    const htmlPng = Buffer.concat([PNG_BYTES, Buffer.from('<html><script>alert(1)</script></html>')]);
    const pngRes = await submit(valid(3), [['photo.png', htmlPng]]);
    expect(pngRes.statusCode).toBe(400);
    expect(pngRes.json().error.code).toBe('upload_failed');
    expect(storedFiles()).toEqual(before);
    expect(await bookingCount()).toBe(1);
  });

  // Issue 21 item 6 (decision 028): what a byte scan missed, in real crafted files.
  const ACTIVE = 'the file contains active content (scripts, HTML, macros or embedded files) and was refused';
  it.each([
    ['objstm.pdf', () => pdfWithObjectStream('<</S/JavaScript/JS(app.alert(1))>>'), ACTIVE],
    ['escaped.pdf', () => pdfWithObject('<</S/J#61vaScript/J#53(app.alert(1))>>'), ACTIVE],
    ['actions.pdf', () => pdfWithObject('<</Type/Page/#41#41<</O<</S/GoTo/D[0/Fit]>>>>>>'), ACTIVE],
    ['html-tail.png', () => Buffer.concat([PNG_BYTES, Buffer.from('<!doctype x><p onmouseover=alert(1)>')]), ACTIVE],
    ['utf16-script.png', () => Buffer.concat([PNG_BYTES, Buffer.from('<script>alert(1)</script>', 'utf16le')]), ACTIVE],
    ['macros.docx', () => docxArchive([{ name: 'word/vbaProject.bin', data: Buffer.from('macro') }]), ACTIVE],
    ['bomb.docx', () => docxArchive([{ name: 'word/media/image1.png', data: Buffer.alloc(5 * 1024 * 1024), deflate: true }]), 'the DOCX expands to far more than its size (a zip bomb?), and was refused'],
  ])('refuses %s, storing nothing', async (name, build, reason) => {
    const before = storedFiles();
    const count = await bookingCount();
    const res = await submit(valid(6), [['ok.pdf', PDF_BYTES], [name, build()]]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.message).toBe(`Failed to upload ${name}: ${reason}`);
    expect(storedFiles()).toEqual(before);
    expect(await bookingCount()).toBe(count);
  });

  it('accepts a Word document and a PDF whose object stream holds nothing active', async () => {
    const res = await submit(valid(7), [
      ['note.docx', docxArchive()],
      ['compressed.pdf', pdfWithObjectStream('<</S/GoTo/D[0/Fit]>>')],
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().documents).toBe(2);
  });

  it('leaves no temporary upload files behind, whatever the outcome', async () => {
    const tmp = (await import('node:os')).tmpdir();
    // This process's own upload folders only: other test files upload in parallel.
    const leftovers = () => fs.readdirSync(tmp).filter((f) => f.startsWith(`baywise-upload-${process.pid}-`));
    const before = leftovers().length;
    await submit(valid(4), [['fine.png', PNG_BYTES]]);
    await submit(valid(5), [['bad.pdf', Buffer.from('not a pdf at all')]]);
    expect(leftovers().length).toBe(before);
  });
});
