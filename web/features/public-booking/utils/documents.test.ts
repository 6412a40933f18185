import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, MAX_FILES } from '../../../../domain/constants';
import { addDocuments } from './documents';

function file(name: string, size = 10, lastModified = 1): File {
  const f = new File([new Uint8Array(Math.min(size, 16))], name, { lastModified });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('addDocuments', () => {
  it('accepts every allowed extension, case-insensitively', () => {
    const names = ['a.pdf', 'b.DOC', 'c.docx', 'd.jpg', 'e.JPEG', 'f.png'];
    const { files, errors } = addDocuments([], names.map((n) => file(n)));
    expect(errors).toEqual([]);
    expect(files.map((f) => f.name)).toEqual(names);
  });

  it('refuses other types and oversized files with a clear message', () => {
    const { files, errors } = addDocuments([], [file('run.exe'), file('big.pdf', MAX_FILE_BYTES + 1), file('ok.pdf', MAX_FILE_BYTES)]);
    expect(files.map((f) => f.name)).toEqual(['ok.pdf']);
    expect(errors).toEqual([
      'run.exe is not an accepted file type (PDF, DOC, DOCX, JPG, JPEG, PNG)',
      'big.pdf is larger than 10MB',
    ]);
  });

  it('skips duplicates and stops at the file limit', () => {
    const first = file('a.pdf');
    const many = Array.from({ length: MAX_FILES }, (_, i) => file(`f${i}.pdf`, 10, i + 2));
    const { files, errors } = addDocuments([first], [first, ...many]);
    expect(files).toHaveLength(MAX_FILES);
    expect(errors[0]).toBe('a.pdf is already attached');
    expect(errors[1]).toBe(`f9.pdf was not added: at most ${MAX_FILES} files can be attached`);
  });
});
