import type { Outcome } from './api-report.ts';
import type { Scenario } from './api-scenarios.ts';
import { runLoad, type LoadRequest } from './http-load.ts';

/**
 * One scenario: a first request alone (the probe) tells whether the route exists, then the load.
 * A route not mounted yet answers the application's not-found 404 ("No route for ..."): it is
 * reported as such rather than measured, as is a route that answered 404 to every request.
 */

export type RunSettings = { origins: Record<Scenario['target'], string>; seconds: number; connections: number };

type Answer = { status: number; body: string; headers: Record<string, unknown>; summary: string };

const send = async (origin: string, request: LoadRequest): Promise<Answer> => {
  const response = await fetch(`${origin}${request.path}`, {
    method: request.method ?? 'GET',
    headers: { ...request.headers, ...(request.body !== undefined && { 'content-type': 'application/json' }) },
    ...(request.body !== undefined && { body: request.body }),
  });
  const type = response.headers.get('content-type') ?? '';
  const body = Buffer.from(await response.arrayBuffer());
  const text = type.includes('json') ? body.toString('utf8') : '';
  const summary = `${response.status} ${text ? text.slice(0, 200) : `(${type}, ${body.length} bytes)`}`;
  const headers: Record<string, unknown> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { status: response.status, body: text, headers, summary };
};

export const runScenario = async (scenario: Scenario, settings: RunSettings): Promise<Outcome> => {
  const origin = settings.origins[scenario.target];
  const first = scenario.requests.next();
  const method = first.method ?? 'GET';
  const probeStartedAt = performance.now();
  const probe = await send(origin, first);
  const probeMs = performance.now() - probeStartedAt;
  if (probe.status === 404 && probe.body.includes('No route for')) return { scenario, method, status: 'unavailable', reason: 'route not available (404)' };
  const limit = scenario.requests.remaining?.();
  if (limit === 0) return { scenario, method, status: 'unavailable', reason: 'no input left after the probe' };

  const observer = scenario.observe?.();
  observer?.onAnswer(probe.status, probe.body, probe.headers);
  const connections = scenario.connections ?? settings.connections;
  const result = await runLoad({
    origin,
    next: scenario.requests.next,
    connections,
    seconds: settings.seconds,
    ...(limit !== undefined && { limit }),
    ...(observer && { onResponse: observer.onAnswer }),
  });
  const answers = Object.values(result.statuses).reduce((sum, count) => sum + count, 0);
  if (probe.status === 404 && answers > 0 && result.statuses['404'] === answers) {
    return { scenario, method, status: 'unavailable', reason: `route not available (404): every answer was 404, e.g. ${probe.summary}` };
  }
  return {
    scenario,
    method,
    status: 'measured',
    result,
    connections,
    ranOut: limit !== undefined && result.completed >= limit,
    probeMs,
    ...(observer && { observed: await observer.report() }),
    ...(probe.status >= 300 && { note: `the probe request answered ${probe.summary}` }),
  };
};
