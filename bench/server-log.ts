import { pino } from 'pino';
import type { Logger } from '../src/logger.ts';

/**
 * The server's log during a load run, tallied instead of printed (a failing route would log once per
 * request): how many times each message was logged, and for warnings and errors their first error
 * text, to print at the end.
 */

export type LogTally = {
  logger: Logger;
  count: (message: string) => number;
  /** Warnings and errors: one line per distinct message. */
  summary: () => string[];
};

type Entry = { level: number; msg?: string; err?: { message?: string }; error?: unknown };

const warn = 40;
const error = 50;

export const tallyingLogger = (): LogTally => {
  const counts = new Map<string, number>();
  const problems = new Map<string, { count: number; example: string }>();
  const logger = pino(
    { level: 'info', base: null },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as Entry;
        const message = entry.msg ?? '(no message)';
        counts.set(message, (counts.get(message) ?? 0) + 1);
        if (entry.level < warn) return;
        const key = `${entry.level >= error ? 'error' : 'warn'}: ${message}`;
        const seen = problems.get(key) ?? { count: 0, example: entry.err?.message ?? (typeof entry.error === 'string' ? entry.error : '') };
        seen.count++;
        problems.set(key, seen);
      },
    },
  );
  return {
    logger,
    count: (message) => counts.get(message) ?? 0,
    summary: () => [...problems].map(([key, { count, example }]) => `${count.toLocaleString('en')} x ${key}${example ? ` (${example})` : ''}`),
  };
};
