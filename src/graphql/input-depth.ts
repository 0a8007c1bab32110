import { GraphQLError } from 'graphql/index.js';
import type { Plugin } from 'graphql-yoga';
import type { GraphqlContext } from './context.ts';

/**
 * Variables (and extensions) nested thousands of levels deep are valid JSON, but every recursive
 * walk over them (serialising them for a kept answer's key, a scalar echoing its input, graphql-js
 * coercing them) may overflow the stack: an unexpected failure, answered 500, for a client's mistake.
 * They are measured once, without recursion, before anything else reads them, and refused beyond
 * `maxInputDepth`: the deepest input the schema takes is 3 levels (an address's street lines in an
 * action token's `data`, inside the variables).
 */
export const maxInputDepth = 10;

/** How deeply `value` nests objects and arrays, counted up to `limit + 1` at most (no recursion). */
export const depthOf = (value: unknown, limit: number): number => {
  let deepest = 0;
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const level = depth + 1;
    deepest = Math.max(deepest, level);
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) pending.push({ value: child, depth: level });
  }
  return deepest;
};

export const inputTooDeep = (): GraphQLError =>
  new GraphQLError(`Variables and extensions nest at most ${maxInputDepth} levels`, {
    extensions: { code: 'INPUT_TOO_DEEP', http: { status: 400 } },
  });

/** Refuses the request before it is parsed, validated or run. */
export const inputDepthLimit = (): Plugin<GraphqlContext> => ({
  onParams({ params }) {
    // The variables object itself is one level; the extensions likewise.
    if (depthOf(params.variables, maxInputDepth) > maxInputDepth || depthOf(params.extensions, maxInputDepth) > maxInputDepth) throw inputTooDeep();
  },
});
