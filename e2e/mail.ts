import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { simpleParser } from 'mailparser';

export { expect };

/** The run's data directory (the server's DATA_DIR; playwright.config.ts passes the same). */
export const DATA_DIR = process.env.E2E_DATA_DIR ? path.resolve(process.env.E2E_DATA_DIR) : path.join(import.meta.dirname, '.data', 'run');
export const OUTBOX_DIR = path.join(DATA_DIR, 'outbox');

/** The newest message in the server's outbox addressed to `to` (and whose text matches `matching`, when given), as plain text. */
export async function latestMailTo(to: string, timeoutMs = 10_000, matching?: RegExp): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(OUTBOX_DIR) ? fs.readdirSync(OUTBOX_DIR).filter((f) => f.endsWith('.eml')).sort().reverse() : [];
    for (const file of files) {
      const raw = fs.readFileSync(path.join(OUTBOX_DIR, file));
      // Parsed only when the address is in it somewhere: hundreds of messages pile up in a run.
      if (!raw.toString('latin1').toLowerCase().includes(to.toLowerCase())) continue;
      const mail = await simpleParser(raw);
      const recipients = [mail.to].flat().flatMap((a) => a?.value ?? []).map((a) => a.address?.toLowerCase());
      if (recipients.includes(to.toLowerCase()) && (!matching || matching.test(mail.text ?? ''))) return mail.text ?? '';
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No mail to ${to} in ${OUTBOX_DIR}`);
}

/** The newest message to `to` whose text matches `matching`: its text and its attachments (inline images included). */
export async function latestMailWithPartsTo(
  to: string,
  matching?: RegExp,
  timeoutMs = 10_000,
): Promise<{ text: string; attachments: Array<{ cid?: string; contentType: string; content: Buffer }> }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(OUTBOX_DIR) ? fs.readdirSync(OUTBOX_DIR).filter((f) => f.endsWith('.eml')).sort().reverse() : [];
    for (const file of files) {
      const raw = fs.readFileSync(path.join(OUTBOX_DIR, file));
      if (!raw.toString('latin1').toLowerCase().includes(to.toLowerCase())) continue;
      const mail = await simpleParser(raw);
      const recipients = [mail.to].flat().flatMap((a) => a?.value ?? []).map((a) => a.address?.toLowerCase());
      if (recipients.includes(to.toLowerCase()) && (!matching || matching.test(mail.text ?? ''))) {
        return { text: mail.text ?? '', attachments: mail.attachments.map((a) => ({ cid: a.cid, contentType: a.contentType, content: a.content })) };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No mail to ${to} in ${OUTBOX_DIR}`);
}
