import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { ALLOWED_FILE_EXTENSIONS, MAX_FILE_BYTES, MAX_FILES } from '../../../domain/constants';
import { AppError, badRequest } from '../../plugins/errors';

export type UploadedDocument = { fileName: string; contentType: string; data: Buffer };

/** What each allowed extension must really contain, by its leading bytes. */
const CONTENT_TYPES: Record<(typeof ALLOWED_FILE_EXTENSIONS)[number], string[]> = {
  pdf: ['application/pdf'],
  doc: ['application/x-cfb'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
};
const STORED_TYPES: Record<string, string> = {
  'application/x-cfb': 'application/msword',
};

export const uploadFailed = (fileName: string, reason: string) =>
  new AppError(400, 'upload_failed', `Failed to upload ${fileName}: ${reason}`, { fileName, reason });

/** A name safe on any file system and in a URL: letters, digits, dot, dash, underscore; at most 100 characters. */
export function sanitizeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/')).normalize('NFKD');
  const ext = path.extname(base).toLowerCase().replace(/[^a-z0-9.]/g, '');
  const stem = base
    .slice(0, base.length - path.extname(base).length)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+|_+$/g, '')
    .slice(0, 100 - ext.length);
  return `${stem || 'document'}${ext}`;
}

/** Checks extension, size and the real content type; answers the content type to store. */
export async function checkDocument(fileName: string, data: Buffer): Promise<string> {
  const ext = path.extname(fileName).slice(1).toLowerCase() as keyof typeof CONTENT_TYPES;
  if (!(ALLOWED_FILE_EXTENSIONS as readonly string[]).includes(ext)) {
    throw uploadFailed(fileName, 'only PDF, DOC, DOCX, JPG, JPEG and PNG files are accepted');
  }
  if (data.length === 0) throw uploadFailed(fileName, 'the file is empty');
  if (data.length > MAX_FILE_BYTES) throw uploadFailed(fileName, 'files must be 10MB or smaller');
  const detected = await fileTypeFromBuffer(data);
  if (!detected || !CONTENT_TYPES[ext].includes(detected.mime)) {
    throw uploadFailed(fileName, `the content is not a real .${ext} file`);
  }
  return STORED_TYPES[detected.mime] ?? detected.mime;
}

/**
 * Reads a multipart booking submission: the `data` field (JSON) and up to 10 `documents` files,
 * each checked by content before anything is written.
 */
export async function readBookingMultipart(request: FastifyRequest): Promise<{ data: unknown; documents: UploadedDocument[] }> {
  let data: unknown;
  const documents: UploadedDocument[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'data') {
          if (part.valueTruncated) throw badRequest('The booking data is too large');
          try {
            data = JSON.parse(String(part.value));
          } catch {
            throw badRequest('The booking data is not valid JSON');
          }
        }
        continue;
      }
      const fileName = sanitizeFileName(part.filename || 'document');
      if (part.fieldname !== 'documents') {
        await part.toBuffer().catch(() => undefined);
        continue;
      }
      let buffer: Buffer;
      try {
        buffer = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw uploadFailed(fileName, 'files must be 10MB or smaller');
        }
        throw error;
      }
      documents.push({ fileName, contentType: await checkDocument(fileName, buffer), data: buffer });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest(`You can attach at most ${MAX_FILES} files`);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw badRequest('Expected a multipart form submission');
    throw error;
  }
  return { data, documents };
}
