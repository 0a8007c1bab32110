import { setImmediate } from 'node:timers/promises';

/**
 * Gives the event loop one turn: whatever is waiting (a timer, a socket, a request) runs before the
 * caller goes on. Reading the log and the embedded stores chains promises only, so a long loop over
 * them lets nothing in unless it asks for a turn.
 */
export const nextTurn = (): Promise<void> => setImmediate();

/**
 * A long piece of work on the main thread, cut into turns of the event loop. Where reads resolve
 * without waiting for anything (the embedded stores answer synchronously behind their promises), a
 * loop of awaits never lets a timer, a socket or a request in: it runs whole in one turn. The loop
 * asks `spent` at each step, which costs a clock read, and gives the event loop a turn once the slice
 * is used up, so that nothing waits longer than about one slice for it.
 */
export class TimeSlice {
  private started = performance.now();

  constructor(private readonly ms = 10) {}

  get spent(): boolean {
    return performance.now() - this.started >= this.ms;
  }

  async nextTurn(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }
}
