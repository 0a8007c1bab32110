import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  visit,
  type ASTVisitor,
  type DocumentNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql/index.js';
import type { Plugin } from 'graphql-yoga';
import type { GraphqlContext } from './context.ts';
import { maxCost, operationCost, tooCostly } from './cost.ts';
import { startBudget } from './time-budget.ts';

/**
 * Limits that refuse abusive documents before anything runs: too deep, too many aliases or root
 * fields, too costly (cost.ts: priced with the variables, so it runs just before execution), or (when
 * configured) introspection. Each refusal is a GraphQL error with its own code. An operation that
 * passes them runs within a time budget (time-budget.ts).
 */

/** The deepest path of the schema is 6 fields (sales > edges > node > savs > appointment > date). */
export const maxDepth = 6;
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

/** Prices the operation with its variables; too costly, it does not run. Otherwise its time budget starts. */
const costAndBudget = (timeBudgetMs: number): Plugin<GraphqlContext> => ({
  onExecute({ args, setResultAndStopExecution, extendContext }) {
    const cost = operationCost(args.schema, args.document, args.variableValues ?? {}, args.operationName, args.contextValue as GraphqlContext);
    if (cost > maxCost) {
      setResultAndStopExecution({ errors: [tooCostly(cost)] });
      return;
    }
    extendContext({ timeBudget: startBudget(timeBudgetMs) });
  },
});

const tooManyAliases = `An operation uses at most ${maxAliases} aliases`;

/**
 * Parsing is the one step every document goes through whole: 2,000 aliased dashboards (240 kB) took
 * graphql-js 50 to 190 ms to parse alone. The parser stops at this many tokens instead; the largest
 * operation the limits below allow (10 root fields of 15 aliases with their selections) is far smaller.
 */
export const maxTokens = 3_000;

const tokenLimit = (): Plugin<GraphqlContext> => ({
  onParse({ setParseFn }) {
    setParseFn((source, options) => {
      try {
        return parse(source, { ...options, maxTokens });
      } catch (error) {
        // graphql-js words it "more that N tokens".
        if (error instanceof GraphQLError && /more tha[nt] \d+ tokens/.test(error.message)) {
          throw new GraphQLError(`An operation has at most ${maxTokens} tokens`, { extensions: { code: 'QUERY_TOO_LARGE' } });
        }
        throw error;
      }
    });
  },
});

/** The aliases written in the document (a fragment's once, however often it is spread). */
const writtenAliases = (document: DocumentNode): number => {
  let count = 0;
  visit(document, {
    Field(field) {
      if (field.alias) count++;
    },
  });
  return count;
};

/**
 * Before graphql-js validates: its rule that fields of one name can be merged compares them pair by
 * pair, so 2,000 aliases of one field cost 4 million comparisons (most of a second) before any limit
 * could refuse them. A document written with too many aliases is refused in one walk instead; the
 * max-aliases rule still counts the aliases its fragments spread.
 */
const aliasPreflight = (): Plugin<GraphqlContext> => ({
  onValidate({ params, setResult }) {
    if (writtenAliases(params.documentAST) > maxAliases) setResult([new GraphQLError(tooManyAliases, { extensions: { code: 'TOO_MANY_ALIASES' } })]);
  },
});

export const queryLimits = ({ timeBudgetMs }: { timeBudgetMs: number }): Plugin<GraphqlContext>[] => [
  tokenLimit(),
  aliasPreflight(),
  maxAliasesPlugin({
    n: maxAliases,
    propagateOnRejection: false,
    onReject: [reportAs('TOO_MANY_ALIASES', tooManyAliases)],
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
  costAndBudget(timeBudgetMs),
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
