import type { Middleware } from 'koa';
import { writtenTogether, type Written } from '../events/command-handler.ts';
import type { ProjectionEngine } from '../projections/engine/engine.ts';

/**
 * Read-your-writes, decided by the HTTP layer: a command returns the log position it reached
 * (`Written`), the route notes it, and the answer leaves once the read models have applied it, so that
 * the client's next request, to any route of any instance, reads what it just wrote. The command
 * handler never waits; the projection engine alone answers how far the read models are.
 */

/** What the request wrote so far (ctx.state, or a GraphQL operation's context). */
export type WritesOfRequest = { written?: Written };

/** Notes a write of the request: its answer waits for it. */
export const noteWritten = (request: WritesOfRequest, written: Written | undefined): void => {
  request.written = writtenTogether(request.written, written);
};

/**
 * For a route that reads its own write back before answering (the SAV it just opened): waits for the
 * read models to reach it. False when they did not in time (READ_YOUR_WRITES_TIMEOUT_MS) or a
 * projection they depend on has stopped.
 */
export const seeWritten = async (engine: Pick<ProjectionEngine, 'waitFor'>, written: Written | undefined): Promise<boolean> =>
  written === undefined ? true : engine.waitFor(written.position);

/**
 * Once the route has answered, waits for the read models to apply what it wrote before the answer
 * leaves. When they do not get there in time, or a projection has stopped, the answer still leaves
 * (the write is recorded) and says so: `Read-Your-Writes: lagging`.
 */
export const readYourWrites =
  (engine: Pick<ProjectionEngine, 'waitFor'>): Middleware =>
  async (ctx, next) => {
    await next();
    const written = (ctx.state as WritesOfRequest).written;
    if (written && !(await engine.waitFor(written.position))) ctx.set('Read-Your-Writes', 'lagging');
  };
