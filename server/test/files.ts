import zlib from 'node:zlib';

// Real minimal files for upload tests: each is what its extension claims, by content.

export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The start of a Windows executable ("MZ" header): what a renamed .exe looks like. */
export const EXE_BYTES = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(200)]);

// ── Crafted files for the active-content checks (decision 028) ─────────────────────────────────

/**
 * A PDF whose object 4 (the action the catalog opens with) lives in an object stream: `objects`
 * is that stream's body ("4 0 <<…>>"), encoded with `filter`; a cross-reference stream indexes it
 * all, as a real writer does.
 */
export function pdfWithObjectStream(objectBody: string, filter: 'FlateDecode' | 'ASCIIHexDecode' | 'none' = 'FlateDecode', typeName = '/Type/ObjStm'): Buffer {
  const header = '4 0 ';
  const body = Buffer.from(header + objectBody);
  const encoded = filter === 'FlateDecode' ? zlib.deflateSync(body) : filter === 'ASCIIHexDecode' ? Buffer.from(`${body.toString('hex')}>`) : body;
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  const add = (chunk: Buffer | string) => parts.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk);
  const at = () => parts.reduce((n, p) => n + p.length, 0);
  offsets[1] = at();
  add('1 0 obj\n<</Type/Catalog/Pages 2 0 R/OpenAction 4 0 R>>\nendobj\n');
  offsets[2] = at();
  add('2 0 obj\n<</Type/Pages/Kids[]/Count 0>>\nendobj\n');
  offsets[3] = at();
  const filterEntry = filter === 'none' ? '' : `/Filter/${filter}`;
  add(`3 0 obj\n<<${typeName}/N 1/First ${header.length}${filterEntry}/Length ${encoded.length}>>\nstream\n`);
  add(encoded);
  add('\nendstream\nendobj\n');
  offsets[5] = at();
  // Cross-reference stream: W [1 4 2]; object 4 is compressed (type 2) in object 3 at index 0.
  const row = (type: number, field2: number, field3: number) => {
    const b = Buffer.alloc(7);
    b.writeUInt8(type, 0);
    b.writeUInt32BE(field2, 1);
    b.writeUInt16BE(field3, 5);
    return b;
  };
  const xref = Buffer.concat([row(0, 0, 65535), row(1, offsets[1]!, 0), row(1, offsets[2]!, 0), row(1, offsets[3]!, 0), row(2, 3, 0), row(1, offsets[5]!, 0)]);
  add(`5 0 obj\n<</Type/XRef/Size 6/W[1 4 2]/Root 1 0 R/Length ${xref.length}>>\nstream\n`);
  add(xref);
  add(`\nendstream\nendobj\nstartxref\n${offsets[5]}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** A one-page-less PDF whose plain objects include `extra` (an object written as it is). */
export function pdfWithObject(extra: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R/OpenAction 3 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n3 0 obj${extra}endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
    'latin1',
  );
}

type ZipEntry = { name: string; data: Buffer; deflate?: boolean; declaredSize?: number };

/** A zip archive (store or deflate), as Word writes a DOCX; `declaredSize` lets a test lie in the directory. */
export function zipArchive(entries: ZipEntry[]): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const stored = entry.deflate ? zlib.deflateRawSync(entry.data) : entry.data;
    const crc = zlib.crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const method = entry.deflate ? 8 : 0;
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(0, 6);
    head.writeUInt16LE(method, 8);
    head.writeUInt32LE(0, 10);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(stored.length, 18);
    head.writeUInt32LE(size, 22);
    head.writeUInt16LE(name.length, 26);
    head.writeUInt16LE(0, 28);
    local.push(head, name, stored);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0, 8);
    dir.writeUInt16LE(method, 10);
    dir.writeUInt32LE(0, 12);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(stored.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += head.length + name.length + stored.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, directory, end]);
}

/** A minimal Word document's parts; `extra` entries follow them. */
export function docxArchive(extra: ZipEntry[] = []): Buffer {
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
  const document =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Delivery note</w:t></w:r></w:p></w:body></w:document>';
  return zipArchive([
    { name: '[Content_Types].xml', data: Buffer.from(contentTypes) },
    { name: '_rels/.rels', data: Buffer.from(rels) },
    { name: 'word/document.xml', data: Buffer.from(document), deflate: true },
    ...extra,
  ]);
}
