import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import {
  MAX_PLATE_PHOTO_BYTES,
  PLATE_PHOTO_CONTENT_TYPES,
  PLATE_PHOTO_SIZE_MESSAGE,
  PLATE_PHOTO_TYPE_MESSAGE,
  PLATE_UNREADABLE_MESSAGE,
} from '../../../domain/plate-reads';
import { AppError, badRequest, RetryLaterError } from '../../plugins/errors';
import { multipartClientError } from '../../plugins/request-bodies';
import { readPlateLazily } from './plate-ocr-loader';

// A photo of a plate: one image (PNG, JPEG or WebP by its bytes, ≤ 10 MB), read on the server.
// Nothing is stored when it is not an image or no plate can be read in it.

export const PHOTO_FIELD = 'photo';

const refused = (message: string) => badRequest(message, [{ path: PHOTO_FIELD, message }]);

async function drain(stream: NodeJS.ReadableStream) {
  stream.resume();
  await finished(stream).catch(() => undefined);
}

/** The one file of a multipart request (any field name: cameras name it as they like). */
export async function readMultipartImage(request: FastifyRequest): Promise<Buffer> {
  let image: Buffer | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_PLATE_PHOTO_BYTES, files: 2, fields: 10 } })) {
      if (part.type === 'field') continue;
      if (image) {
        await drain(part.file);
        throw refused('Upload one photo at a time');
      }
      image = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw refused(PLATE_PHOTO_SIZE_MESSAGE);
    if (code === 'FST_FILES_LIMIT') throw refused('Upload one photo at a time');
    throw multipartClientError(error) ?? error;
  }
  if (!image) throw refused('Choose a photo of the number plate');
  return image;
}

/** The plates read in an image (likeliest first), or a 400 (not an image) / 422 (no plate) / 503 (busy). */
export async function platesInImage(image: Buffer): Promise<string[]> {
  if (image.length === 0) throw refused('The photo is empty');
  if (image.length > MAX_PLATE_PHOTO_BYTES) throw refused(PLATE_PHOTO_SIZE_MESSAGE);
  const detected = await fileTypeFromBuffer(image);
  if (!detected || !(PLATE_PHOTO_CONTENT_TYPES as readonly string[]).includes(detected.mime)) throw refused(PLATE_PHOTO_TYPE_MESSAGE);
  const result = await readPlateLazily(image);
  if (result.reason === 'busy') throw new RetryLaterError(503, 'ocr_busy', 'Too many photos are being read; try again in a few seconds', 5);
  if (result.reason === 'not_an_image') throw refused(PLATE_PHOTO_TYPE_MESSAGE);
  if (!result.plate) throw new AppError(422, 'plate_unreadable', PLATE_UNREADABLE_MESSAGE, [{ path: PHOTO_FIELD, message: PLATE_UNREADABLE_MESSAGE }]);
  return [result.plate, ...result.candidates.filter((c) => c !== result.plate)];
}
