/**
 * An error answered to the client as it is: its status, a short `error` code or title and a human
 * `message`. Each API group renders it in its own documented envelope (see envelopes.ts).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** What the log may know of the refusal and the client may not (e.g. why a URL was refused). */
  logDetail?: Record<string, unknown>;
}
