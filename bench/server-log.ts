/**
 * The server's log during a load run, tallied instead of printed (a failing route would log once per
 * request): how many times each message was logged, and for warnings and errors their first error
 * text, to print at the end. Fed the server process's JSON lines.
 */

export type LogTally = {
  /** One line of the server's output. */
  take: (line: string) => void;
  count: (message: string) => number;
  /** Warnings and errors: one line per distinct message. */
  summary: () => string[];
};

type Entry = { level?: number; msg?: string; err?: { message?: string }; error?: unknown };

const warn = 40;
const error = 50;

export const tallyOf = (): LogTally => {
  const counts = new Map<string, number>();
  const problems = new Map<string, { count: number; example: string }>();
  return {
    take: (line) => {
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch {
        return; // not a log line
      }
      const message = entry.msg ?? '(no message)';
      counts.set(message, (counts.get(message) ?? 0) + 1);
      if ((entry.level ?? 0) < warn) return;
      const key = `${(entry.level ?? 0) >= error ? 'error' : 'warn'}: ${message}`;
      const seen = problems.get(key) ?? { count: 0, example: entry.err?.message ?? (typeof entry.error === 'string' ? entry.error : '') };
      seen.count++;
      problems.set(key, seen);
    },
    count: (message) => counts.get(message) ?? 0,
    summary: () => [...problems].map(([key, { count, example }]) => `${count.toLocaleString('en')} x ${key}${example ? ` (${example})` : ''}`),
  };
};
