import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';

/**
 * Where outgoing mail goes: the SMTP server of `SMTP_URL`, or, without one, `.eml` files under
 * `DATA_DIR/mail/` (the RFC 5322 message nodemailer would have sent), so that a developer's machine
 * or a test keeps every message without a mail server.
 */

export type OutgoingMail = {
  /** Names the `.eml` file when mail goes to files: letters, digits and dashes only (a UUID). */
  key: string;
  message: SendMailOptions;
};

export type MailTransport = {
  kind: 'smtp' | 'file';
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
};

/**
 * Short waits: the job runs every few seconds and a dead server must not hold a run for minutes
 * (nodemailer waits 2 min for a connection by default). The URL's query may still override them.
 */
const smtpTimeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export const smtpTransport = (smtpUrl: string): MailTransport => {
  const transporter = nodemailer.createTransport({ url: smtpUrl, ...smtpTimeouts });
  return {
    kind: 'smtp',
    send: async ({ message }) => ({ messageId: (await transporter.sendMail(message)).messageId }),
    close: () => transporter.close(),
  };
};

const safeKey = /^[A-Za-z0-9-]{1,64}$/;

export const mailDirectory = (dataDir: string): string => path.join(dataDir, 'mail');

export const fileTransport = (directory: string): MailTransport => {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'file',
    send: async ({ key, message }) => {
      // The key becomes a file name: never a path, never `..`.
      if (!safeKey.test(key)) throw new Error(`Unsafe mail file name: ${JSON.stringify(key)}`);
      const info = await composer.sendMail(message);
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const target = path.join(directory, `${key}.eml`);
      // Written aside then renamed: a crash leaves no half message, and sending again replaces the file.
      const partial = `${target}.${randomUUID()}.partial`;
      try {
        await writeFile(partial, info.message as Buffer, { mode: 0o600 });
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { messageId: info.messageId };
    },
    close: () => composer.close(),
  };
};

export const createMailTransport = (config: { smtpUrl: string | undefined; dataDir: string }): MailTransport =>
  config.smtpUrl ? smtpTransport(config.smtpUrl) : fileTransport(mailDirectory(config.dataDir));
