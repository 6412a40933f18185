// Text messages behind one interface: the SMS outbox (sms-outbox.ts) hands each message to a
// sender; the provider adapter (twilio-sms.ts) is the only place that knows a provider's API.

export type SmsMessage = { to: string; body: string };
export type SentSms = { providerMessageId: string | null };

export interface SmsSender {
  /** Sends one message; throws SmsSendError when the provider refuses or cannot be reached. */
  send(message: SmsMessage): Promise<SentSms>;
}

/**
 * A message the provider did not take. `isPermanent`: it never will (a 4xx such as a bad number
 * or refused credentials), so the outbox stops trying; otherwise (5xx, 429, network) it retries.
 */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly isPermanent: boolean,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}

/**
 * A phone number as the provider takes it (E.164: + and 8–15 digits), from what a haulier typed
 * ('+61 412 345-678' → '+61412345678'); null for a number without its country code, which
 * cannot be dialled safely from abroad.
 */
export function toE164(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const compact = phone.trim().replace(/[\s().-]/g, '');
  const international = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
  return /^\+[1-9]\d{7,14}$/.test(international) ? international : null;
}
