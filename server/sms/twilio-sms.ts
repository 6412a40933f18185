import type { Config } from '../config';
import { SmsSendError, type SmsSender } from './sms-sender';

// The provider adapter: an HTTP API in Twilio's shape — POST {SMS_URL}/Accounts/{sid}/Messages.json
// with the form fields To, From and Body, basic auth with the account sid and token; the answer's
// `sid` is the provider's message id. Any provider offering that shape (or a small proxy) fits.

const TIMEOUT_MS = 10_000;

export function createTwilioSmsSender(sms: NonNullable<Config['sms']>, fetchImpl: typeof fetch = fetch): SmsSender {
  const endpoint = `${sms.url}/Accounts/${encodeURIComponent(sms.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${sms.accountSid}:${sms.authToken}`).toString('base64')}`;
  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetchImpl(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ To: message.to, From: sms.from, Body: message.body }).toString(),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new SmsSendError(`SMS provider not reachable: ${(error as Error).message}`, false);
      }
      const text = await response.text().catch(() => '');
      if (!response.ok) {
        // 429 and 5xx pass; any other 4xx (bad number, refused credentials) will not.
        const isPermanent = response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
        throw new SmsSendError(`SMS provider answered ${response.status}: ${text.slice(0, 300)}`, isPermanent);
      }
      let sid: string | null = null;
      try {
        const parsed = JSON.parse(text) as { sid?: unknown };
        sid = typeof parsed.sid === 'string' ? parsed.sid : null;
      } catch {
        sid = null;
      }
      return { providerMessageId: sid };
    },
  };
}
