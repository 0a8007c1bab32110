import { GraphQLError, type ExecutionResult } from 'graphql/index.js';
import type { Plugin } from 'graphql-yoga';

/**
 * graphql-js writes the offending input into its messages (`Int cannot represent non-integer value:
 * "…"`, `Cannot query field "…"`), and so do the scalars: a 500 kB string literal came back whole in
 * the error. Every message a client reads is cut to an excerpt; the longest the service writes itself
 * (the cost refusal) is about 200 characters.
 */
export const maxErrorMessageLength = 300;

/** The error, or a copy of it with its message cut to `maxErrorMessageLength` characters (locations, path and code kept). */
export const withBoundedMessage = (error: GraphQLError): GraphQLError => {
  if (error.message.length <= maxErrorMessageLength) return error;
  return new GraphQLError(`${error.message.slice(0, maxErrorMessageLength)}…`, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
};

const bounded = (result: ExecutionResult): ExecutionResult =>
  result.errors?.some((error) => error.message.length > maxErrorMessageLength) ? { ...result, errors: result.errors.map(withBoundedMessage) } : result;

/**
 * On the result about to be written, whatever produced its errors: parsing, validation (whose errors
 * never reach the masking of execution errors), variables' coercion or a resolver.
 */
export const boundedErrorMessages = (): Plugin => ({
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result)) setResult(result.map(bounded));
    else if (!(Symbol.asyncIterator in result)) setResult(bounded(result));
  },
});
