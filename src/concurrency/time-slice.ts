import { setImmediate as nextTurn } from 'node:timers/promises';

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
