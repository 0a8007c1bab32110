import { GraphQLError } from 'graphql/index.js';
import type { Refusal } from '../events/decider.ts';

/**
 * The errors a client is meant to read: each carries `extensions.code`. Anything else thrown in a
 * resolver is masked by the server ("Unexpected error.") and logged.
 */

export const unauthenticated = (): GraphQLError =>
  new GraphQLError('Invalid or missing Bearer token of the analyst, auditor or core group', { extensions: { code: 'UNAUTHENTICATED' } });

export const badUserInput = (field: string, message: string): GraphQLError =>
  new GraphQLError(`${field}: ${message}`, { extensions: { code: 'BAD_USER_INPUT', field } });

export const notFound = (what: string): GraphQLError => new GraphQLError(`${what} not found`, { extensions: { code: 'NOT_FOUND' } });

/** A business refusal of a command: its code in upper snake case (`unknown_refund` -> `UNKNOWN_REFUND`) and its details. */
export const refused = (refusal: Refusal): GraphQLError =>
  new GraphQLError(refusal.message, { extensions: { code: refusal.code.toUpperCase(), details: refusal.details } });

/** An operation the token's group may not run (a change for staff asked with an analyst's token). */
export const forbidden = (message: string): GraphQLError => new GraphQLError(message, { extensions: { code: 'FORBIDDEN' } });
