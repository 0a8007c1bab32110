import type { Response } from 'supertest';
import type { Clock } from '../../src/events/command-context.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

/** The service on a fresh data directory, with an analyst token, and a helper to run GraphQL operations. */

export const now = '2026-10-05T08:00:00.000Z';

/** A clock the test moves forward, so that events of one test occur at distinct instants. */
export const steppingClock = (start: string = now): Clock & { advance: (minutes: number) => void } => {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    advance: (minutes) => {
      current = new Date(current.getTime() + minutes * 60_000);
    },
  };
};

export type GraphqlApi = ApiHarness & {
  token: string;
  /** POSTs an operation with the analyst token (or the given one); answers the raw response. */
  post: (query: string, variables?: Record<string, unknown>, token?: string | null) => Promise<Response>;
  /** Runs an operation that must succeed and answers its `data`. */
  data: <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) => Promise<T>;
  /** A core token (label `back-office`): staff, who alone may run mutations. */
  staffToken: string;
  /** Runs an operation with the staff token that must succeed and answers its `data`. */
  staffData: <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) => Promise<T>;
};

export const startGraphqlApi = async (options: { env?: Record<string, string>; clock?: Clock } = {}): Promise<GraphqlApi> => {
  const api = await startApi({ clock: options.clock ?? { now: () => new Date(now) }, ...(options.env && { env: options.env }) });
  const token = await api.tokenFor('analyst', 'dashboards');
  const staffToken = await api.tokenFor('core', 'back-office');
  const post: GraphqlApi['post'] = async (query, variables, given) => {
    const request = api.request.post('/graphql').set('Content-Type', 'application/json');
    const bearer = given === undefined ? token : given;
    if (bearer !== null) request.set('Authorization', `Bearer ${bearer}`);
    return request.send({ query, ...(variables && { variables }) });
  };
  const dataWith = (bearer: string) => async (query: string, variables?: Record<string, unknown>) => {
    const response = await post(query, variables, bearer);
    if (response.status !== 200 || response.body.errors) throw new Error(`GraphQL failed (${response.status}): ${JSON.stringify(response.body)}`);
    return response.body.data;
  };
  return { ...api, token, post, data: dataWith(token), staffToken, staffData: dataWith(staffToken) };
};
