import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { ALLOWED_FILE_EXTENSIONS, MAX_FILE_BYTES, MAX_FILES } from '../../../domain/constants';
import { AppError, badRequest } from '../../plugins/errors';
import { multipartClientError } from '../../plugins/request-bodies';
import { findActiveContentIn, markupScanner } from '../../uploads/active-content';

// Booking documents arrive as a multipart stream. Each file is written to a temporary file as it
// arrives (memory stays flat whatever the size and number), while its size is counted, its first
// bytes kept for the content-type check and its bytes scanned for markup; once whole, the file is
// looked into by format (server/uploads/active-content.ts, decision 028). Nothing is
// stored for the booking until every file has passed; the temporary folder is always removed.

export type UploadedDocument = {
  /** Sanitised, and unique within the submission. */
  fileName: string;
  contentType: string;
  /** The temporary file holding the upload (removed by the submission's cleanup). */
  path: string;
  sizeBytes: number;
  sha256: string;
};

export type MultipartSubmission = { data: unknown; documents: UploadedDocument[]; cleanup: () => Promise<void> };

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
/** file-type reads at most this many leading bytes. */
const SNIFF_BYTES = 4100;

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

/** `name`, or `name-2`, `name-3` … (before the extension) when an earlier file took it. */
export function uniqueFileName(name: string, taken: Set<string>): string {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem.slice(0, 95 - ext.length)}-${n}${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Checks extension, size, real content type and active content of a whole file (tests, small files). */
export async function checkDocument(fileName: string, data: Buffer): Promise<string> {
  const scanner = markupScanner();
  scanner.push(data);
  const stored = await checkContent(fileName, data.length, data.subarray(0, SNIFF_BYTES), scanner.hasActiveContent);
  await checkInside(fileName, stored, data);
  return stored;
}

const ACTIVE_CONTENT = 'the file contains active content (scripts, HTML, macros or embedded files) and was refused';

/** The look inside the format (decision 028): PDF dictionaries and object streams, what follows a PNG, a DOCX's real sizes. */
async function checkInside(fileName: string, storedType: string, data: Buffer): Promise<void> {
  const kind = storedType === 'application/pdf' ? 'pdf' : storedType === 'image/png' ? 'png' : storedType === CONTENT_TYPES.docx[0] ? 'docx' : 'other';
  const refusal = await findActiveContentIn(kind, data);
  if (!refusal) return;
  throw refusal.verdict === 'active'
    ? new AppError(400, 'upload_failed', `Failed to upload ${fileName}: ${ACTIVE_CONTENT}`, { fileName, reason: refusal.reason })
    : uploadFailed(fileName, `${refusal.reason}, and was refused`);
}

function extensionOf(fileName: string): keyof typeof CONTENT_TYPES | null {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  return (ALLOWED_FILE_EXTENSIONS as readonly string[]).includes(ext) ? (ext as keyof typeof CONTENT_TYPES) : null;
}

const WRONG_EXTENSION = 'only PDF, DOC, DOCX, JPG, JPEG and PNG files are accepted';

async function checkContent(fileName: string, size: number, head: Buffer, hasActiveContent: boolean): Promise<string> {
  const ext = extensionOf(fileName);
  if (!ext) throw uploadFailed(fileName, WRONG_EXTENSION);
  if (size === 0) throw uploadFailed(fileName, 'the file is empty');
  if (size > MAX_FILE_BYTES) throw uploadFailed(fileName, 'files must be 10MB or smaller');
  const detected = await fileTypeFromBuffer(head);
  if (!detected || !CONTENT_TYPES[ext].includes(detected.mime)) {
    throw uploadFailed(fileName, `the content is not a real .${ext} file`);
  }
  if (hasActiveContent) throw uploadFailed(fileName, ACTIVE_CONTENT);
  return STORED_TYPES[detected.mime] ?? detected.mime;
}

/** How many multipart submissions stream at once; later ones wait their turn (their bodies unread). */
export const MAX_CONCURRENT_UPLOADS = 8;
/** How many may wait; beyond that the answer is 503 with Retry-After. */
export const MAX_WAITING_UPLOADS = 200;
let uploadsInFlight = 0;
const waiting: Array<() => void> = [];

/** Waits for an upload slot (or answers 503 when too many wait); resolves to its release. */
export async function acquireUploadSlot(): Promise<() => void> {
  if (uploadsInFlight >= MAX_CONCURRENT_UPLOADS) {
    if (waiting.length >= MAX_WAITING_UPLOADS) {
      throw new AppError(503, 'uploads_busy', 'The server is receiving many documents right now. Please try again in a few seconds.');
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    uploadsInFlight++;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next(); // the slot passes straight to the next in line
    else uploadsInFlight--;
  };
}

/** Streams one file part to `file`: size, sha-256, leading bytes and the active-content scan on the way. */
async function receiveFile(stream: NodeJS.ReadableStream & { truncated?: boolean }, file: string, fileName: string) {
  const out = fs.createWriteStream(file, { flags: 'wx' });
  const hash = createHash('sha256');
  const scanner = markupScanner();
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk);
        headBytes += chunk.length;
      }
      hash.update(chunk);
      scanner.push(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } catch (error) {
    out.destroy();
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw uploadFailed(fileName, 'files must be 10MB or smaller');
    throw error;
  }
  out.end();
  await finished(out);
  if (stream.truncated) throw uploadFailed(fileName, 'files must be 10MB or smaller');
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(head).subarray(0, SNIFF_BYTES), hasActiveContent: scanner.hasActiveContent };
}

/** The booking form sends one field (`data`); a form with more than this many is not ours. */
export const MAX_FORM_FIELDS = 20;
const tooManyFields = () =>
  new AppError(413, 'payload_too_large', `The form has too many fields: send the booking data and at most ${MAX_FILES} documents`);

/**
 * Reads a multipart booking submission: the `data` field (JSON) and up to 10 `documents` files,
 * each streamed to a temporary file and checked by content before anything is stored. The caller
 * must call `cleanup()` when done, whatever happened.
 */
export async function readBookingMultipart(request: FastifyRequest): Promise<MultipartSubmission> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(contentType)) {
    throw badRequest('Expected a multipart form submission with a boundary (Content-Type: multipart/form-data; boundary=…)');
  }
  // The process id in the name: a leftover can be traced to the process that made it.
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `baywise-upload-${process.pid}-`));
  const cleanup = () => fsp.rm(dir, { recursive: true, force: true });
  let data: unknown;
  const documents: UploadedDocument[] = [];
  const taken = new Set<string>();
  let fields = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        // Counted here, below the multipart plugin's own limit: its limit stops the parser in the
        // middle of whatever part comes next, and the answer would name that part, not the cause.
        if (++fields > MAX_FORM_FIELDS) throw tooManyFields();
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
      const sanitized = sanitizeFileName(part.filename || 'document');
      if (part.fieldname !== 'documents' || !extensionOf(sanitized)) {
        part.file.resume(); // drain what we will not keep
        await finished(part.file).catch(() => undefined);
        if (part.fieldname === 'documents') throw uploadFailed(sanitized, WRONG_EXTENSION);
        continue;
      }
      const fileName = uniqueFileName(sanitized, taken);
      const file = path.join(dir, String(documents.length));
      const received = await receiveFile(part.file, file, fileName);
      const stored = await checkContent(fileName, received.size, received.head, received.hasActiveContent);
      await checkInside(fileName, stored, await fsp.readFile(file));
      documents.push({ fileName, contentType: stored, path: file, sizeBytes: received.size, sha256: received.sha256 });
    }
  } catch (error) {
    await cleanup();
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest(`You can attach at most ${MAX_FILES} files`);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw tooManyFields();
    throw multipartClientError(error) ?? error;
  }
  return { data, documents, cleanup };
}
