import { statSync } from 'node:fs';

/**
 * The embedded read models' file, watched while the server runs. Deleted or replaced under it, the
 * server would go on serving, without a word, a file no other process sees any more (the CLI would open
 * a new one beside a stale journal). The server is told, and stops: the next start rebuilds the read
 * models from the log. `projections reset` is the safe way to start them over.
 */
export const watchReadModelsFile = (file: string, onGone: (what: 'deleted' | 'replaced') => void, everyMs = 1_000): { stop: () => void } => {
  const opened = statSync(file).ino;
  const timer = setInterval(() => {
    let gone: 'deleted' | 'replaced' | undefined;
    try {
      if (statSync(file).ino !== opened) gone = 'replaced';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') gone = 'deleted';
    }
    if (!gone) return;
    clearInterval(timer);
    onGone(gone);
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};
