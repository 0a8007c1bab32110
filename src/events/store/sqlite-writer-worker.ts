import { parentPort, workerData } from 'node:worker_threads';
import { committerOn } from './sqlite-group-commit.ts';
import { openDatabase, prepareStatements } from './sqlite-schema.ts';
import { failureToWire, outcomesToWire, type WriterData, type WriterReply, type WriterRequest } from './sqlite-writer-protocol.ts';

/** The embedded log's writer thread (sqlite-writer-thread.ts): each group it is sent committed on its own connection, in the order sent. */
const { file, busyTimeoutMs } = workerData as WriterData;
const port = parentPort!;
const db = openDatabase(file, busyTimeoutMs);
const commit = committerOn(db, prepareStatements(db));

port.on('message', (request: WriterRequest) => {
  if (request.type === 'close') {
    db.close();
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    reply = { id: request.id, outcomes: outcomesToWire(commit(request.appends, request.recordedAt)) };
  } catch (error) {
    reply = { id: request.id, failure: failureToWire(error) };
  }
  port.postMessage(reply);
});
