import { MAX_WORKING_SIDE } from '../../../../domain/plate-image';

// A phone's photo is often 4000 px wide and 3–8 MB: more than the plate reader uses (the server
// scales every picture down to MAX_WORKING_SIDE before it looks for a plate) and slow to send
// over a gate's mobile connection. A big photo is therefore scaled down here to a little over that
// size (the server's own scaling then loses nothing) and sent as a JPEG. Anything this browser
// cannot decode is sent as it is, so the server's message says what is wrong with it.

/** The longest side sent; above the server's working size so its own scaling decides the detail. */
const SEND_SIDE = Math.round(MAX_WORKING_SIDE * 1.5);
/** Photos at most this large (and this wide) go as they are. */
const SEND_AS_IS_BYTES = 1_500_000;
const JPEG_QUALITY = 0.9;

export async function preparePlatePhoto(file: File): Promise<{ photo: Blob; fileName: string }> {
  const asIs = { photo: file as Blob, fileName: file.name || 'photo' };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return asIs;
  }
  try {
    const longest = Math.max(bitmap.width, bitmap.height);
    if (longest <= SEND_SIDE && file.size <= SEND_AS_IS_BYTES) return asIs;
    const scale = Math.min(1, SEND_SIDE / longest);
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) return asIs;
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
    if (!blob || blob.size >= file.size) return asIs;
    return { photo: blob, fileName: `${(file.name || 'photo').replace(/\.[^.]*$/, '')}.jpg` };
  } finally {
    bitmap.close();
  }
}
