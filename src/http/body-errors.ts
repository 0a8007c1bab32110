import type { JsonShapeProblem } from './json-shape.ts';

/**
 * Why the body reader (json-body.ts) refused a body before any route ran: each API group words them
 * in its own envelope and language (rest/middleware/error-handler.ts), GraphQL as GraphQL errors.
 */

/** Thrown by the body parser for a body that is not JSON at all; rendered in the group's words. */
export class NotJsonBodyError extends Error {}

/** Thrown by the body parser for a body its Content-Encoding cannot decode, or an encoding it does not know. */
export class BodyEncodingError extends Error {
  constructor(
    readonly problem: 'undecodable' | 'unsupported',
    readonly encoding: string,
  ) {
    super(`${problem} body encoding ${encoding}`);
  }
}

/** Thrown by the body parser for a body nested too deep or holding too many values, before it is parsed. */
export class BodyShapeError extends Error {
  constructor(readonly shape: JsonShapeProblem) {
    super(`body ${shape.problem} over ${shape.limit} at ${shape.path}`);
  }
}

/** Thrown by the body parser for a file route's body that is not declared as an image or a video, or is compressed. */
export class NotFileBodyError extends Error {}

/** Thrown by the body parser when the bodies held at once would exceed the process's budget. */
export class BodyBudgetExhaustedError extends Error {}
