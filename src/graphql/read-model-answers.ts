import { getOperationAST, Kind, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql/index.js';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { GraphqlContext } from './context.ts';

/**
 * Answers kept while the read models they come from have not changed. A query field whose answer is
 * a function of its arguments and of some projections' read models alone (no clock, no caller) names
 * them in its extensions (`answeredFrom`). An operation made only of such root fields is answered, the
 * same document asked again with the same variables by a caller of the same group, from the result
 * kept, as long as every read model it names has the same content version (see the projection
 * engine; read now when another instance runs the projection): a batch that changes one of them makes
 * every answer drawn from it computed again. Results with errors are never kept; least recently used
 * answers go first beyond `maxEntries`.
 */

export type AnsweredFrom = { answeredFrom: readonly string[] };

/** The extensions of a query field answered from these projections' read models alone. */
export const answeredFrom = (...projections: string[]): AnsweredFrom => ({ answeredFrom: projections });

type OnExecute = NonNullable<Plugin<GraphqlContext>['onExecute']>;
type ExecutePayload = Parameters<OnExecute>[0];
type ExecuteHookResult = Awaited<ReturnType<OnExecute>>;

/** Enough for the periods a team of analysts keeps open; a dashboard answer is at most 366 buckets. */
export const maxKeptAnswers = 100;

/** The projections an operation's answer comes from, or undefined if it is not made of such fields only. */
const projectionsOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): string[] | undefined => {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'query') return undefined;
  const fields = schema.getQueryType()?.getFields() ?? {};
  const projections = new Set<string>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return undefined;
    if (selection.name.value === '__typename') continue;
    const from = (fields[selection.name.value]?.extensions as Partial<AnsweredFrom> | undefined)?.answeredFrom;
    if (from === undefined) return undefined;
    for (const projection of from) projections.add(projection);
  }
  return [...projections];
};

/**
 * The variables written as part of a key, or undefined when they cannot be: JSON.stringify overflows
 * the stack on values nested a few thousand levels deep (input-depth.ts refuses them before, but a
 * key that cannot be written must only mean an answer computed and not kept, never a failure).
 */
export const variablesKey = (variables: unknown): string | undefined => {
  try {
    return JSON.stringify(variables ?? {});
  } catch {
    return undefined;
  }
};

export const readModelAnswers = (maxEntries = maxKeptAnswers): Plugin<GraphqlContext> => {
  const kept = new LRUCache<string, { versions: string; result: ExecutionResult }>({ max: maxEntries });
  // Parsed documents are cached by the server per text: the same text is the same document.
  const documentIds = new WeakMap<DocumentNode, number>();
  let lastId = 0;

  const keyOf = (args: ExecutionArgs, group: string): string | undefined => {
    const variables = variablesKey(args.variableValues);
    if (variables === undefined) return undefined;
    let id = documentIds.get(args.document);
    if (id === undefined) documentIds.set(args.document, (id = ++lastId));
    return `${id}\n${args.operationName ?? ''}\n${group}\n${variables}`;
  };

  const answerKept = async ({ args, setResultAndStopExecution }: ExecutePayload, projections: readonly string[]): Promise<ExecuteHookResult> => {
    const { runtime, token } = args.contextValue as GraphqlContext;
    const key = keyOf(args, token.group);
    if (key === undefined) return;
    // Taken before the read: a change applied meanwhile makes the answer stale at once, never fresh for too long.
    const versions = await Promise.all(projections.map((projection) => runtime.projections.currentContentVersion(projection)));
    if (versions.includes(null)) return;
    const version = versions.join(' ');
    const entry = kept.get(key);
    if (entry && entry.versions === version) {
      runtime.metrics.observeKeptAnswer('hit');
      setResultAndStopExecution(entry.result);
      return;
    }
    runtime.metrics.observeKeptAnswer('miss');
    return {
      onExecuteDone({ result }) {
        if ('data' in result && !result.errors?.length) kept.set(key, { versions: version, result });
      },
    };
  };

  return {
    // Every other operation goes on at once, without waiting on a promise.
    onExecute(payload) {
      const projections = projectionsOf(payload.args.schema, payload.args.document, payload.args.operationName);
      return projections === undefined ? undefined : answerKept(payload, projections);
    },
  };
};
