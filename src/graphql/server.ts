import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { GraphQLError, GraphQLScalarType, type GraphQLSchema } from 'graphql/index.js';
import { createYoga, maskError, type YogaServerInstance } from 'graphql-yoga';
import type { Runtime } from '../runtime.ts';
import type { GraphqlContext } from './context.ts';
import { graphiqlOptions } from './graphiql/graphiql-options.ts';
import { renderLocalGraphiQL } from './graphiql/graphiql-page.ts';
import { boundedErrorMessages } from './bounded-errors.ts';
import { inputDepthLimit } from './input-depth.ts';
import { noIntrospection, queryLimits } from './limits.ts';
import { readModelAnswers } from './read-model-answers.ts';
import { withinBudget } from './time-budget.ts';
import { buildSchema } from './schema.ts';
import { zonedTimestamp } from '../time/zoned-timestamp.ts';

export const graphqlPath = '/graphql';

export const schema = buildSchema();
const schemasByZone = new Map<string, GraphQLSchema>();

/**
 * The schema whose DateTime values are written in the planning time zone with their offset, the one
 * timestamp format of every API (time/zoned-timestamp.ts). A scalar's serializer sees no context, so
 * the zone is put into a copy of the schema, made once per zone.
 */
const schemaInZone = (timezone: string): GraphQLSchema => {
  let zoned = schemasByZone.get(timezone);
  if (zoned === undefined) {
    const format = zonedTimestamp(timezone);
    zoned = mapSchema(schema, {
      [MapperKind.SCALAR_TYPE]: (type) =>
        type.name === 'DateTime' ? new GraphQLScalarType({ ...type.toConfig(), serialize: (value) => format(value as string) }) : type,
      // The fields with a resolver of their own check the operation's time budget (time-budget.ts).
      [MapperKind.OBJECT_FIELD]: (field, _name, typeName) =>
        field.resolve ? { ...field, resolve: withinBudget(field.resolve, typeName === 'Query' || typeName === 'Mutation') } : field,
    });
    schemasByZone.set(timezone, zoned);
  }
  return zoned;
};

/**
 * The GraphQL server: the schema, the validation limits, GraphiQL outside production, and masked
 * errors. An error a resolver throws on purpose (a GraphQLError with a code) reaches the client; any
 * other is logged and answered "Unexpected error." with code INTERNAL_SERVER_ERROR. No message is
 * longer than an excerpt (bounded-errors.ts).
 */
export const createGraphqlServer = (runtime: Runtime): YogaServerInstance<GraphqlContext, object> =>
  createYoga<GraphqlContext>({
    schema: schemaInZone(runtime.config.planningTimezone),
    graphqlEndpoint: graphqlPath,
    // GraphiQL from the service's own copy of its bundle (graphiql/), not from a CDN.
    graphiql: runtime.config.production ? false : graphiqlOptions,
    renderGraphiQL: renderLocalGraphiQL,
    landingPage: false,
    // The body reaching the server was read and limited to 1 MiB by the app's body parser (json-body.ts):
    // yoga's own limit would pipe every body through one more stream to count its bytes again.
    maxRequestBodySize: false,
    // Bearer tokens only, from internal tools: no cross-origin browser access.
    cors: false,
    logging: false,
    maskedErrors: {
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (original !== undefined && !(original instanceof GraphQLError)) runtime.log.error({ err: original }, 'graphql operation failed');
        return maskError(error, message, false);
      },
    },
    plugins: [
      inputDepthLimit(),
      boundedErrorMessages(),
      ...queryLimits({ timeBudgetMs: runtime.config.graphqlTimeBudgetMs }),
      ...(runtime.config.graphqlIntrospection ? [] : noIntrospection()),
      // After the limits: an operation refused for its cost is refused every time.
      readModelAnswers(),
    ],
  });
