import type { RecordedEvent } from '../../../src/events/store/event-store.ts';
import { BadRequest } from './messages.ts';
import { ReadReq, type ReadReqMessage } from './protocol.ts';

/**
 * A server-side filter of `$all`, as EventStoreDB reads it from the request: on the stream name or on
 * the event type, by prefixes (when any are given) or else by a regular expression; its search window
 * (`max`, or 32 when the client asks for `count`) times the checkpoint interval multiplier is how many
 * events are considered between two checkpoints.
 */
export type WireFilter = {
  on: 'streamName' | 'eventType';
  prefixes: readonly string[];
  regex: RegExp | undefined;
  window: number;
  checkpointInterval: number;
};

const DEFAULT_WINDOW = 32;

export function filterOf(options: InstanceType<typeof ReadReq.Options>): WireFilter | undefined {
  if (!options.hasFilter()) return undefined;
  const filter = options.getFilter()!;
  const on = filter.hasStreamIdentifier() ? 'streamName' : filter.hasEventType() ? 'eventType' : undefined;
  const expression = filter.getStreamIdentifier() ?? filter.getEventType();
  if (on === undefined || expression === undefined) throw new BadRequest('A filter needs a stream-name or an event-type expression');
  const prefixes = expression.getPrefixList();
  let regex: RegExp | undefined;
  if (prefixes.length === 0) {
    try {
      regex = new RegExp(expression.getRegex());
    } catch {
      throw new BadRequest(`Invalid filter regex ${expression.getRegex()}`);
    }
  }
  const window = filter.getWindowCase() === ReadReq.Options.FilterOptions.WindowCase.MAX ? filter.getMax() : DEFAULT_WINDOW;
  const multiplier = filter.getCheckpointintervalmultiplier();
  if (window <= 0 || multiplier <= 0) throw new BadRequest('The search window and the checkpoint interval must be positive');
  return { on, prefixes, regex, window, checkpointInterval: window * multiplier };
}

export function passes(filter: WireFilter | undefined, event: RecordedEvent): boolean {
  if (filter === undefined) return true;
  const subject = filter.on === 'streamName' ? event.streamName : event.type;
  if (filter.regex !== undefined) return filter.regex.test(subject);
  return filter.prefixes.some((prefix) => subject.startsWith(prefix));
}

export const readOptionsOf = (request: ReadReqMessage) => {
  const options = request.getOptions();
  if (options === undefined) throw new BadRequest('A read needs options');
  return options;
};
