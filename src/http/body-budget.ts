/**
 * How many bytes of request bodies the process holds at once, whatever the routes: each body reserves
 * what it may grow to (its Content-Length, or its route's limit when the length is unknown or
 * compressed) before a byte is read, and gives it back once its request has answered. A route's
 * limit bounds one request; this bounds them all together, so that no number of concurrent requests
 * holds more than the budget (the parsed values included, which the shape limits keep in proportion).
 * A body that does not fit is refused at once (503, Retry-After) rather than queued.
 */
export class BodyBudget {
  private used = 0;

  constructor(readonly bytes: number) {}

  /** Reserves `bytes`; a release function, or null when they do not fit now. */
  reserve(bytes: number): (() => void) | null {
    if (this.used + bytes > this.bytes) return null;
    this.used += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
    };
  }

  get inUse(): number {
    return this.used;
  }
}

/**
 * The process's budget: 48 MiB, three of the largest bodies (16 MiB) or forty-eight ordinary ones at
 * once, a sixth of the server's heap (`--max-old-space-size=320`), the text and its parsed values included.
 */
export const processBodyBudget = new BodyBudget(48 * 1024 * 1024);
