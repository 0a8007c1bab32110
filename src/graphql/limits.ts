import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql/index.js';
import type { Plugin } from 'graphql-yoga';

/**
 * Validation rules that refuse abusive documents before anything runs: too deep, too costly, or
 * (when configured) introspection. Each refusal is a validation error with its own code.
 */

/** The deepest path of the schema is 6 fields (sales > edges > node > savs > appointment > date). */
export const maxDepth = 6;
export const maxCost = 25_000;
/**
 * Aliases let one request ask for the same costly field many times over (2,000 aliased dashboards
 * held the event loop 15 s while passing the cost limit); a client comparing periods needs a few.
 */
export const maxAliases = 15;
/** Fields at the root of one operation, fragments included. */
export const maxRootFields = 10;

/** The root fields of an operation, through its fragments (each named fragment counted once). */
const rootFieldCount = (context: ValidationContext, selections: SelectionSetNode, seen: Set<string>): number =>
  selections.selections.reduce((count, selection) => {
    if (selection.kind === Kind.FIELD) return count + 1;
    if (selection.kind === Kind.INLINE_FRAGMENT) return count + rootFieldCount(context, selection.selectionSet, seen);
    if (seen.has(selection.name.value)) return count;
    seen.add(selection.name.value);
    const fragment = context.getFragment(selection.name.value);
    return fragment ? count + rootFieldCount(context, fragment.selectionSet, seen) : count;
  }, 0);

const maxRootFieldsRule =
  (limit: number) =>
  (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      if (rootFieldCount(context, operation.selectionSet, new Set()) > limit) {
        context.reportError(
          new GraphQLError(`An operation asks for at most ${limit} root fields`, { nodes: [operation], extensions: { code: 'TOO_MANY_ROOT_FIELDS' } }),
        );
      }
    },
  });

const reportAs = (code: string, message: string) => (context: ValidationContext | null) => {
  context?.reportError(new GraphQLError(message, { extensions: { code } }));
};

export const queryLimits = (): Plugin[] => [
  maxAliasesPlugin({
    n: maxAliases,
    propagateOnRejection: false,
    onReject: [reportAs('TOO_MANY_ALIASES', `An operation uses at most ${maxAliases} aliases`)],
  }),
  {
    onValidate({ addValidationRule }) {
      addValidationRule(maxRootFieldsRule(maxRootFields));
    },
  },
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
