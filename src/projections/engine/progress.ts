/**
 * How fast a catch-up goes and how long it has left: the events and positions applied over the last
 * few seconds, against the head of the log.
 */
export type CatchUpProgress = {
  /** Every projection run here has caught up with the log as it was at start. */
  ready: boolean;
  /** The position the projections have applied up to; null before the first event. */
  position: number | null;
  /** The last position of the log, as last read. */
  head: number;
  eventsPerSecond: number;
  /** null while the rate is unknown, 0 once ready. */
  etaSeconds: number | null;
};

const windowMs = 5000;

export class ProgressMeter {
  private samples: { at: number; events: number; position: number }[] = [];

  record(at: number, events: number, position: number): void {
    this.samples.push({ at, events, position });
    while (this.samples.length > 2 && this.samples[0]!.at < at - windowMs) this.samples.shift();
  }

  /** Rates over the last few seconds, from the batch before them (0 until two batches a moment apart are known). */
  rates(now: number): { eventsPerSecond: number; positionsPerSecond: number } {
    const recent = this.samples.filter((sample) => sample.at >= now - windowMs);
    const first = this.samples[this.samples.indexOf(recent[0]!) - 1] ?? recent[0];
    const seconds = first === undefined ? 0 : (now - first.at) / 1000;
    if (seconds < 0.2 || first === undefined) return { eventsPerSecond: 0, positionsPerSecond: 0 };
    const events = recent.filter((sample) => sample !== first).reduce((sum, sample) => sum + sample.events, 0);
    return { eventsPerSecond: events / seconds, positionsPerSecond: (recent.at(-1)!.position - first.position) / seconds };
  }
}
