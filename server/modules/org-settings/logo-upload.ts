import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { LOGO_CONTENT_TYPES, LOGO_SIZE_MESSAGE, LOGO_TYPE_MESSAGE, MAX_LOGO_BYTES } from '../../../domain/org-settings';
import { badRequest } from '../../plugins/errors';
import { multipartClientError } from '../../plugins/request-bodies';
import { findActiveContentIn, markupScanner } from '../../uploads/active-content';

// The organization's logo arrives as a multipart form with one file in the field `logo`. It is
// small (≤ 1 MB), so it is read into memory — the per-request limit stops the stream at 1 MB, so
// a bigger upload never fills memory — and then checked by its content: what the bytes are, never
// what the name or the browser claim.

export type LogoUpload = { data: Buffer; contentType: (typeof LOGO_CONTENT_TYPES)[number]; extension: string };

export const LOGO_FIELD = 'logo';

export const LOGO_ACTIVE_MESSAGE = 'The logo holds something besides the image (scripts or HTML) and was refused';
const refused = (message: string) => badRequest(message, [{ path: LOGO_FIELD, message }]);

/** What the bytes really are: a PNG, JPEG or WebP image, or a 400 naming the field. */
export async function checkLogo(data: Buffer): Promise<LogoUpload> {
  if (data.length === 0) throw refused('The logo file is empty');
  if (data.length > MAX_LOGO_BYTES) throw refused(LOGO_SIZE_MESSAGE);
  const detected = await fileTypeFromBuffer(data);
  const type = LOGO_CONTENT_TYPES.find((t) => t === detected?.mime);
  if (!detected || !type) throw refused(LOGO_TYPE_MESSAGE);
  // The logo is served from our origin: an image that is also a page (markup after the image, in
  // any encoding) is refused like a booking document (decision 028).
  const scanner = markupScanner();
  scanner.push(data);
  if (scanner.hasActiveContent || (await findActiveContentIn(type === 'image/png' ? 'png' : 'other', data))) throw refused(LOGO_ACTIVE_MESSAGE);
  return { data, contentType: type, extension: detected.ext };
}

async function drain(stream: NodeJS.ReadableStream) {
  stream.resume();
  await finished(stream).catch(() => undefined);
}

/** Reads and checks the one logo file of a multipart request; nothing is stored here. */
export async function readLogoUpload(request: FastifyRequest): Promise<LogoUpload> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType) || !/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(contentType)) {
    throw badRequest('Send the logo as a multipart form (Content-Type: multipart/form-data) with one file in the field "logo"');
  }
  let logo: Buffer | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_LOGO_BYTES, files: 2, fields: 5 } })) {
      if (part.type === 'field') continue;
      if (part.fieldname !== LOGO_FIELD) {
        await drain(part.file);
        throw refused('Send the image in the field "logo"');
      }
      if (logo) {
        await drain(part.file);
        throw refused('Upload one image at a time');
      }
      logo = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw refused(LOGO_SIZE_MESSAGE);
    if (code === 'FST_FILES_LIMIT') throw refused('Upload one image at a time');
    throw multipartClientError(error) ?? error;
  }
  if (!logo) throw refused('Choose an image to upload');
  return checkLogo(logo);
}
