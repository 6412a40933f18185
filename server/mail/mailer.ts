import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** `cid`: an inline part the HTML refers to as `cid:<cid>` (the arrival QR code). */
export type MailAttachment = { filename: string; content: string | Buffer; contentType?: string; cid?: string };
export type MailMessage = {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
};
export type SentMail = { messageId: string; file?: string };
/**
 * A message sent from the mail outbox carries its outbox id: the Message-ID and the outbox file
 * name come from it, so delivering the same row twice (a crash after sending, before recording
 * it) writes the same file and lets mail servers drop the duplicate.
 */
export type SendOptions = { id: string; queuedAt: Date };

export type Mailer = {
  send: (message: MailMessage, options?: SendOptions) => Promise<SentMail>;
  /** The folder .eml files are written to when no SMTP server is configured. */
  outboxDir?: string;
};

/**
 * SMTP when SMTP_URL is set; otherwise every message is rendered to a real RFC 822 .eml file
 * under DATA_DIR/outbox (nodemailer's stream transport), and a log line names it.
 */
export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string; log: Logger }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      send: async (message, sendOptions) => {
        const messageId = sendOptions ? `<${sendOptions.id}@baywise.outbox>` : undefined;
        const info = await transport.sendMail({ from: options.from, ...message, messageId });
        options.log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
        return { messageId: info.messageId };
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // The folder is made once (again only if it went missing); a failed attempt is not kept.
  let folderReady: Promise<unknown> | null = null;
  const makeFolder = () =>
    (folderReady = fs.mkdir(options.outboxDir, { recursive: true }).catch((error: unknown) => {
      folderReady = null;
      throw error;
    }));
  return {
    outboxDir: options.outboxDir,
    send: async (message, sendOptions) => {
      const messageId = sendOptions ? `<${sendOptions.id}@baywise.outbox>` : undefined;
      const info = await transport.sendMail({ from: options.from, ...message, messageId });
      await (folderReady ?? makeFolder());
      const stamp = (sendOptions?.queuedAt ?? new Date()).toISOString().replace(/[:.]/g, '-');
      const safeId = String(info.messageId).replace(/[^a-zA-Z0-9@.-]/g, '');
      const file = path.join(options.outboxDir, `${stamp}-${safeId}.eml`);
      // Written whole or not at all: a crash mid-write leaves no half message behind.
      const partial = `${file}.partial`;
      await fs.writeFile(partial, info.message as Buffer).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await makeFolder();
        await fs.writeFile(partial, info.message as Buffer);
      });
      await fs.rename(partial, file);
      options.log.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
      return { messageId: info.messageId, file };
    },
  };
}
