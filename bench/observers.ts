import type { LogTally } from './server-log.ts';

/**
 * What a scenario watches in its answers beyond their status, and what it waits for once the load
 * stops: cache hits, or the shipping labels that imported orders leave to render after their answer.
 */
export type Observer = {
  onAnswer: (status: number, body: string, headers: Record<string, unknown>) => void;
  /** Called once the load has stopped; says what was seen. */
  report: () => Promise<string>;
};

const headerOf = (headers: Record<string, unknown>, name: string): unknown => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/** supplier-a's X-Cache header: HIT or MISS. */
export const cacheHeader = (): Observer => {
  const seen = { HIT: 0, MISS: 0 };
  return {
    onAnswer: (_status, _body, headers) => {
      const value = headerOf(headers, 'x-cache');
      if (value === 'HIT' || value === 'MISS') seen[value]++;
    },
    report: async () => `X-Cache HIT ${seen.HIT.toLocaleString('en')} / MISS ${seen.MISS.toLocaleString('en')}`,
  };
};

/** The supplier API answers some refusals 200 with `success: false` (ship-sale's "nothing deliverable"). */
export const successFlag = (): Observer => {
  let refused = 0;
  return {
    onAnswer: (_status, body) => {
      if (body.includes('"success":false')) refused++;
    },
    report: async () => `success: false in ${refused.toLocaleString('en')} answers`,
  };
};

const labelsRendered = 'shipping labels of an imported order rendered';
const labelsFailed = 'shipping labels of an imported order not rendered';

/**
 * An imported order's labels are rendered after its answer, one order at a time: the import's true
 * cost includes them. Waits (up to `waitMs`) for the labels of every order imported with supplier
 * lines, and tells how long they took past the last answer.
 */
export const importedLabels = (serverLog: LogTally, waitMs: number): Observer => {
  let ordersWithLines = 0;
  const labelled = () => serverLog.count(labelsRendered) + serverLog.count(labelsFailed);
  return {
    onAnswer: (status, body) => {
      if (status !== 201) return;
      const answer = JSON.parse(body) as { supplier_lines?: unknown[] };
      if ((answer.supplier_lines?.length ?? 0) > 0) ordersWithLines++;
    },
    report: async () => {
      const startedAt = performance.now();
      while (labelled() < ordersWithLines && performance.now() - startedAt < waitMs) await new Promise((resolve) => setTimeout(resolve, 100));
      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      const done = Math.min(labelled(), ordersWithLines);
      return done === ordersWithLines
        ? `labels of the ${ordersWithLines.toLocaleString('en')} orders with supplier lines done ${seconds} s after the last answer`
        : `labels of ${done.toLocaleString('en')} of ${ordersWithLines.toLocaleString('en')} orders with supplier lines done; ${seconds} s after the last answer the rest were still rendering`;
    },
  };
};
