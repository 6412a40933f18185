import { ALLOWED_FILE_EXTENSIONS, MAX_FILE_BYTES, MAX_FILES } from '../../../../domain/constants';

/** The file picker's filter: the accepted extensions. */
export const DOCUMENT_ACCEPT_ATTRIBUTE = ALLOWED_FILE_EXTENSIONS.map((e) => `.${e}`).join(',');

const MAX_MB = Math.round(MAX_FILE_BYTES / (1024 * 1024));
const TYPES_TEXT = ALLOWED_FILE_EXTENSIONS.map((e) => e.toUpperCase()).join(', ');

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function sameFile(a: File, b: File): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
}

export type DocumentSelection = { files: File[]; errors: string[] };

/**
 * Adds picked or dropped files to the current list, refusing (with a message each) files of
 * another type, files over the size limit, duplicates, and anything beyond the file count limit.
 * The server checks the same rules again, by content.
 */
export function addDocuments(current: File[], incoming: File[]): DocumentSelection {
  const files = [...current];
  const errors: string[] = [];
  for (const file of incoming) {
    if (!(ALLOWED_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) {
      errors.push(`${file.name} is not an accepted file type (${TYPES_TEXT})`);
    } else if (file.size > MAX_FILE_BYTES) {
      errors.push(`${file.name} is larger than ${MAX_MB}MB`);
    } else if (file.size === 0) {
      errors.push(`${file.name} is empty`);
    } else if (files.some((f) => sameFile(f, file))) {
      errors.push(`${file.name} is already attached`);
    } else if (files.length >= MAX_FILES) {
      errors.push(`${file.name} was not added: at most ${MAX_FILES} files can be attached`);
    } else {
      files.push(file);
    }
  }
  return { files, errors };
}
