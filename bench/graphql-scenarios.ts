import { addDays } from '../src/events/planning/calendar-date.ts';
import { maxKeptAnswers } from '../src/graphql/read-model-answers.ts';
import { cycle, repeat, type Scenario } from './api-scenarios.ts';
import type { LoadRequest } from './http-load.ts';
import type { Observer } from './observers.ts';

/**
 * The scenarios of `npm run bench:graphql`: the analysts' two heavy queries (the dashboard over 90 days,
 * asked again (answered from memory while the read model is unchanged) and over a different 90-day period
 * each time (computed), planning occupancy over 30 days, once asking for the REST answer's numbers only,
 * once with capacity and free places) beside the REST call that reads the same planning read model, an almost empty GraphQL
 * query (what the endpoint costs by itself) and a bare `node:http` server.
 */

export type GraphqlBenchPeriod = { dashboardFrom: string; dashboardTo: string; planningFrom: string; planningTo: string };

const graphql = (token: string, query: string, variables: Record<string, unknown>): LoadRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  body: JSON.stringify({ query, variables }),
});

/** A GraphQL answer is 200 even when it carries errors: they are counted apart. */
const graphqlErrors = (): Observer => {
  let withErrors = 0;
  let sample = '';
  return {
    onAnswer: (_status, body) => {
      if (body.includes('"errors"')) {
        withErrors++;
        sample ||= body.slice(0, 160);
      }
    },
    report: async () => (withErrors === 0 ? 'no GraphQL errors' : `GraphQL errors in ${withErrors.toLocaleString('en')} answers: ${sample}`),
  };
};

export const dashboardQuery = /* GraphQL */ `
  query Dashboard($from: LocalDate!, $to: LocalDate!, $granularity: DashboardGranularity! = DAY) {
    dashboard(from: $from, to: $to, granularity: $granularity) {
      buckets {
        start
        end
        orders
        revenue
        averageBasket
        cancellations
        refundRequested
        refundPaid
        savsByCategory {
          key
          count
        }
        savsByType {
          key
          count
        }
        openSavBacklog
        leads
      }
      totals {
        orders
        revenue
        averageBasket
        cancellations
        refundRequested
        refundPaid
        leads
      }
    }
  }
`;

/** The same numbers as the REST answer: the places taken per day and slot. */
export const occupiedQuery = /* GraphQL */ `
  query Occupied($from: LocalDate!, $to: LocalDate!) {
    planningOccupancy(from: $from, to: $to, planningTypes: [sav, delivery]) {
      occupied {
        date
        slots {
          time
          taken
        }
      }
    }
  }
`;

/** Everything an analyst plans capacity with: per planning type and day, each slot's capacity, taken and free places. */
export const planningQuery = /* GraphQL */ `
  query Planning($from: LocalDate!, $to: LocalDate!) {
    planningOccupancy(from: $from, to: $to, planningTypes: [sav, delivery]) {
      from
      to
      timezone
      holidays {
        date
        label
      }
      occupied {
        date
        slots {
          time
          taken
        }
      }
      plannings {
        planningType
        capacityPerSlot
        days {
          date
          open
          closedBecause
          slots {
            time
            capacity
            taken
            free
          }
        }
      }
    }
  }
`;

/**
 * The dashboard over `period`, then over the same length of time ending a day earlier, and so on: more
 * periods than answers are kept, so every request is computed.
 */
export const dashboardComputedScenario = (
  name: string,
  token: string,
  period: { from: string; to: string; granularity: 'DAY' | 'WEEK' | 'MONTH' },
): Scenario => ({
  name,
  target: 'app',
  requests: cycle(
    Array.from({ length: 2 * maxKeptAnswers }, (_, earlier) => ({
      from: addDays(period.from, -earlier),
      to: addDays(period.to, -earlier),
      granularity: period.granularity,
    })),
    (variables) => graphql(token, dashboardQuery, variables),
  ),
  observe: graphqlErrors,
});

export const graphqlScenarios = (tokens: { analyst: string; core: string }, period: GraphqlBenchPeriod): Scenario[] => [
  ...[300, 2_000, 22_600].map((bytes): Scenario => ({
    name: `bare node:http, POST, ${bytes < 1000 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KiB`}`,
    target: 'baseline',
    requests: repeat({ method: 'POST', path: `/size/${bytes}`, body: '{"query":"{ __typename }"}' }),
  })),
  { name: 'GraphQL { __typename }', target: 'app', requests: repeat(graphql(tokens.analyst, '{ __typename }', {})), observe: graphqlErrors },
  {
    name: 'GraphQL dashboard, 90 days by day',
    target: 'app',
    requests: repeat(graphql(tokens.analyst, dashboardQuery, { from: period.dashboardFrom, to: period.dashboardTo })),
    observe: graphqlErrors,
  },
  dashboardComputedScenario('GraphQL dashboard, 90 days by day, a new period each time', tokens.analyst, {
    from: period.dashboardFrom,
    to: period.dashboardTo,
    granularity: 'DAY',
  }),
  {
    name: 'GraphQL planning occupied, 30 days',
    target: 'app',
    requests: repeat(graphql(tokens.analyst, occupiedQuery, { from: period.planningFrom, to: period.planningTo })),
    observe: graphqlErrors,
  },
  {
    name: 'GraphQL planning with capacity, 30 days',
    target: 'app',
    requests: repeat(graphql(tokens.analyst, planningQuery, { from: period.planningFrom, to: period.planningTo })),
    observe: graphqlErrors,
  },
  { name: 'bare node:http, GET, 2 KiB', target: 'baseline', requests: repeat({ path: '/size/2000' }) },
  {
    name: 'REST planning occupied, 30 days',
    target: 'app',
    requests: repeat({
      path: `/api/sale-sav/planning/occupied?start_date=${period.planningFrom}&end_date=${period.planningTo}&planning_types=sav,delivery`,
      headers: { authorization: `Bearer ${tokens.core}` },
    }),
  },
];
