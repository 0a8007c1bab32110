import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql/index.js';

/**
 * What an operation costs, computed from the document and its variables before anything runs: about
 * one unit per value the server resolves, plus the documents a field reads. A list multiplies the
 * cost of its items by its size: the page asked (`first`, `last`), the number of buckets of a
 * dashboard (its days by its granularity), the days of a planning; other lists count 10 items.
 * A DAY dashboard over a year (366 buckets, 366 days read) thus costs about 12 times a MONTH one
 * over a quarter, and fifteen aliased year-long dashboards far more than one request may spend.
 */

export const maxCost = 10_000;
const defaultListSize = 10;
/** Reading and folding a day's document of a dashboard or a performance figure. */
const dayReadCost = 5;
/** The dashboard's and the plannings' ranges are refused beyond this by their resolvers. */
const maxDays = 366;

type Args = Record<string, unknown>;
/** `read`: what the field itself costs; `lists`: the size of the lists of that name beneath it. */
type FieldCost = { read?: (args: Args) => number; lists?: (args: Args) => Record<string, number> };

const daysOf = (args: Args): number => {
  const from = Date.parse(String(args.from));
  const to = Date.parse(String(args.to));
  const days = Math.round((to - from) / 86_400_000) + 1;
  // A range its resolver refuses (reversed, too long, not a date) computes nothing: it gets that error, not this one.
  return Number.isNaN(days) || days < 1 || days > maxDays ? 1 : days;
};

const bucketsOf = (args: Args): number => {
  const days = daysOf(args);
  if (args.granularity === 'week') return Math.ceil(days / 7) + 1;
  if (args.granularity === 'month') return Math.ceil(days / 28) + 1;
  return days;
};

const pageOf = (args: Args, defaultSize: number): number => {
  const size = [args.first, args.last, args.limit].find((value) => typeof value === 'number');
  return typeof size === 'number' ? Math.max(0, size) : defaultSize;
};

const planningTypesOf = (args: Args): number => (Array.isArray(args.planningTypes) ? Math.max(1, args.planningTypes.length) : 1);

const fieldCosts: Record<string, FieldCost> = {
  'Query.dashboard': { read: (args) => daysOf(args) * dayReadCost, lists: (args) => ({ buckets: bucketsOf(args) }) },
  'Query.supplierPerformance': { read: (args) => daysOf(args) * dayReadCost },
  'Query.events': { read: (args) => pageOf(args, 100), lists: (args) => ({ events: pageOf(args, 100) }) },
  'Query.sales': { read: (args) => pageOf(args, 20), lists: (args) => ({ edges: pageOf(args, 20) }) },
  'Query.planningOccupancy': {
    read: (args) => daysOf(args) * planningTypesOf(args),
    lists: (args) => ({ days: daysOf(args), occupied: daysOf(args), plannings: planningTypesOf(args) }),
  },
};

type Walk = { schema: GraphQLSchema; fragments: Record<string, FragmentDefinitionNode>; variables: Args; visiting: Set<string> };

const argumentsOf = (field: GraphQLField<unknown, unknown>, node: Parameters<typeof getArgumentValues>[1], variables: Args): Args => {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    // An invalid argument fails the operation anyway, with graphql-js's own error.
    return {};
  }
};

const selectionCost = (walk: Walk, type: GraphQLNamedType, selections: SelectionSetNode, lists: Record<string, number>): number => {
  let cost = 0;
  for (const selection of selections.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!isObjectType(type)) continue;
      const field = type.getFields()[selection.name.value];
      if (!field) continue;
      const hints = fieldCosts[`${type.name}.${field.name}`];
      const args = hints ? argumentsOf(field, selection, walk.variables) : {};
      const below = { ...lists, ...hints?.lists?.(args) };
      const items = isListType(getNullableType(field.type)) ? (below[field.name] ?? defaultListSize) : 1;
      const children = selection.selectionSet ? selectionCost(walk, getNamedType(field.type), selection.selectionSet, below) : 0;
      // An object (or a list of them) costs 1 and its selection per item; a scalar 1, a list of scalars 1 per item.
      cost += (hints?.read?.(args) ?? 0) + (selection.selectionSet ? 1 + items * children : items);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? (walk.schema.getType(selection.typeCondition.name.value) ?? type) : type;
      cost += selectionCost(walk, on, selection.selectionSet, lists);
    } else {
      const fragment = walk.fragments[selection.name.value];
      // A fragment spreading itself is refused by validation; it costs nothing more here.
      if (!fragment || walk.visiting.has(fragment.name.value)) continue;
      walk.visiting.add(fragment.name.value);
      const on = walk.schema.getType(fragment.typeCondition.name.value) ?? type;
      cost += selectionCost(walk, on, fragment.selectionSet, lists);
      walk.visiting.delete(fragment.name.value);
    }
  }
  return cost;
};

/** The cost of the operation that would run (the named one, or the only one). */
export const operationCost = (schema: GraphQLSchema, document: DocumentNode, variables: Args = {}, operationName?: string | null): number => {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
  if (!operation) return 0;
  const fragments = Object.fromEntries(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return 0;
  return selectionCost({ schema, fragments, variables, visiting: new Set() }, root, operation.selectionSet, {});
};

export const tooCostly = (cost: number): GraphQLError =>
  new GraphQLError(
    `The query costs ${cost}, more than the limit of ${maxCost}: ask for fewer fields, smaller pages, shorter periods or a coarser granularity`,
    {
      extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost },
    },
  );
