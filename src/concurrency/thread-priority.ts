import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Background work yields the cores to the thread that answers the API. On Linux a thread's nice value
 * is its own (`setpriority` given a thread's ID, the kernel's per-thread scheduling): a worker thread
 * calls this first, and the scheduler then gives it the time the other threads leave, and a share of
 * the rest (at nice 10 about a tenth of a core against a busy thread at 0). Lowering one's own
 * priority needs no privilege. Elsewhere, where the current thread's ID cannot be known, the thread
 * keeps its priority: a slower API under load, nothing wrong.
 */
export const yieldToForeground = (nice = 10): boolean => {
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>" for the thread reading it.
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
};
