import QRCode from 'qrcode';
import { arrivalQrText, formatArrivalCode } from '../../../domain/arrival-code';
import type { AppContext } from '../../context';
import type { MailAttachment } from '../../mail/mailer';
import { arrivalCodeFor } from './arrival-code';

// The arrival code as the haulier's e-mail carries it: the typed code and a QR code of
// arrivalQrText(code) (never the manage link), a PNG attached inline and shown by the HTML part.

/** The content id the HTML part's <img src="cid:…"> names. */
export const ARRIVAL_QR_CID = 'arrival-qr@baywise';

export type ArrivalMark = {
  /** As printed: `K7M2-9QXD`. */
  code: string;
  /** The inline PNG attachment of the QR code. */
  qr: MailAttachment;
};

/** The QR code of a booking's arrival code as a PNG (quiet zone included, large enough for a tablet camera off a phone screen). */
export function arrivalQrPng(code: string): Promise<Buffer> {
  return QRCode.toBuffer(arrivalQrText(code), { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 });
}

/** The booking's arrival code and its QR code, derived at delivery from the booking id (nothing stored). */
export async function arrivalMarkFor(ctx: Pick<AppContext, 'authSecret'>, bookingId: string): Promise<ArrivalMark> {
  const code = arrivalCodeFor(ctx.authSecret, bookingId);
  return {
    code: formatArrivalCode(code),
    qr: { filename: 'arrival-code.png', content: await arrivalQrPng(code), contentType: 'image/png', cid: ARRIVAL_QR_CID },
  };
}
