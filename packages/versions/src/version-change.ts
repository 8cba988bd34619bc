import type { TSchema } from 'typebox';

/** A JSON body or an event's `data`, as handlers and use cases write it. */
export type Json = Record<string, unknown>;

/**
 * How one response (a route and a status) or one event type looked before a change: its schema in the previous
 * version (for that version's OpenAPI document) and the function that turns the newer shape into it.
 */
export interface PreviousShape {
  schema: TSchema;
  toPrevious: (newer: Json) => Json;
}

/**
 * One breaking change (docs/reference/contract.md §8; docs/contributors/adding-a-version-change.md): the version that ships it, the
 * changelog line, and how what it changed looked before, per response and per event type. Routes are keyed
 * `'<METHOD> <route pattern>'` as the router knows them (`POST /api/public/appointments/:appointmentId/cancel`).
 */
export interface VersionChange {
  version: string;
  description: string;
  responses?: Record<string, Record<number, PreviousShape>>;
  events?: Record<string, PreviousShape>;
}
