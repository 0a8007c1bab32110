/** Why a document was not rendered; each API group answers them with a 503 in its own envelope. */

/** Every worker is busy and the queue of documents people wait for is full: retry after the given time. */
export class PdfPoolBusyError extends Error {
  readonly code = 'PDF_POOL_BUSY';
  constructor(readonly retryAfterSeconds: number) {
    super('Every PDF renderer is busy and the queue is full');
    this.name = 'PdfPoolBusyError';
  }
}

/** The renderer threw, crashed or exceeded its time limit; a crashed or stopped one has been replaced. */
export class PdfRenderFailedError extends Error {
  readonly code = 'PDF_RENDER_FAILED';
  constructor(
    readonly reason: 'failed' | 'timed_out',
    options: { cause: unknown },
  ) {
    super(reason === 'timed_out' ? 'The PDF renderer exceeded its time limit' : 'The PDF renderer failed', options);
    this.name = 'PdfRenderFailedError';
  }
}

/** The pool is closing (shutdown): no new document. */
export class PdfPoolClosedError extends Error {
  readonly code = 'PDF_POOL_CLOSED';
  constructor() {
    super('The PDF renderers are shut down');
    this.name = 'PdfPoolClosedError';
  }
}
