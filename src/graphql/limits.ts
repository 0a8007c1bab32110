import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ValidationContext } from 'graphql/index.js';
import type { Plugin } from 'graphql-yoga';

/**
 * Validation rules that refuse abusive documents before anything runs: too deep, too costly, or
 * (when configured) introspection. Each refusal is a validation error with its own code.
 */

/** The deepest path of the schema is 6 fields (sales > edges > node > savs > appointment > date). */
export const maxDepth = 6;
export const maxCost = 25_000;

const reportAs = (code: string, message: string) => (context: ValidationContext | null) => {
  context?.reportError(new GraphQLError(message, { extensions: { code } }));
};

export const queryLimits = (): Plugin[] => [
  maxDepthPlugin({
    n: maxDepth,
    // A fragment is a way of writing a selection, not a level of it.
    flattenFragments: true,
    propagateOnRejection: false,
    onReject: [reportAs('QUERY_TOO_DEEP', `The query is nested deeper than ${maxDepth} levels`)],
  }),
  costLimitPlugin({
    maxCost,
    flattenFragments: true,
    propagateOnRejection: false,
    onReject: [reportAs('QUERY_TOO_COSTLY', `The query costs more than ${maxCost} (each object field costs 2, each scalar 1, growing with depth and multiplied by a literal first)`)],
  }),
];

/**
 * With introspection off, the schema is not to be read from the errors either: graphql-js suggests
 * field and type names ("Did you mean "sale" or "sales"?"), which the graphql-armor plugin removes.
 */
export const noIntrospection = (): Plugin[] => [
  {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  },
  blockFieldSuggestionsPlugin({ mask: '' }),
];
