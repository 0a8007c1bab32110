import { once } from 'node:events';

/**
 * The CLI's standard output. Into a pipe, Node writes asynchronously: a command that printed a whole
 * log and then exited at once lost what the pipe had not taken yet (`events replay | wc -l` counted
 * half the events). Commands print through `printLine`, which waits when the pipe is full (so a large
 * replay is never held in memory), and the CLI exits only after `flushOutput`. A reader that stops
 * early (`| head`) closes the pipe: the command then stops quietly, as Unix tools do.
 */

export class OutputClosed extends Error {
  constructor() {
    super('standard output was closed by its reader');
  }
}

let closed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  closed = true;
});

/** Writes one line; waits while the reader is behind. Throws OutputClosed once the reader has gone. */
export const printLine = async (line: string): Promise<void> => {
  if (closed) throw new OutputClosed();
  if (!process.stdout.write(`${line}\n`)) {
    try {
      await once(process.stdout, 'drain');
    } catch {
      // An error while waiting: EPIPE marks the output closed (below); any other was thrown above.
    }
    if (closed) throw new OutputClosed();
  }
};

/** Resolves once everything written so far has been handed to the reader (or the reader has gone). */
export const flushOutput = async (): Promise<void> => {
  if (closed || process.stdout.writableLength === 0) return;
  // A write's callback runs once it and everything before it are handed over, or with its error.
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
};
