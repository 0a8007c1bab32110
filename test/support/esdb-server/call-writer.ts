import type * as grpc from '@grpc/grpc-js';
import type { ReadReqMessage, ReadRespMessage } from './protocol.ts';

export type ReadCall = grpc.ServerWritableStream<ReadReqMessage, ReadRespMessage>;

/** Writes one answer, waiting for the client to drain its buffer (a slow subscriber holds the server back). */
export function send(call: ReadCall, message: ReadRespMessage, abort: AbortSignal): Promise<void> {
  if (abort.aborted || call.write(message)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      abort.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    abort.addEventListener('abort', done, { once: true });
  });
}
