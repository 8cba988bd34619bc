/**
 * `Idempotency-Key` for POST routes (docs/reference/contract.md §4.1), as one helper a handler hands its use case
 * and command to:
 *
 * ```ts
 * app.post('/quotes/:token/accept', {
 *   schema: { headers: idempotencyKeyHeaders, body, response: { 200: Accepted, ...errorResponses(400, 404, 409, 422, 429) } },
 * }, async (request, reply) =>
 *   idempotent(request, reply, 'path', {
 *     useCase: app.useCases.decideQuote,
 *     command: { token: request.params.token, decision: 'accept', ...request.body },
 *     status: 200,
 *     body: (data) => ({ data }),
 *   }),
 * );
 * ```
 *
 * - Without the header, the use case runs as it is (it opens its own transaction) and its response is sent.
 * - With it (1–255 characters, else 400 VALIDATION_FAILED), the key is claimed in `scope`: `'integration'` for
 *   key-authenticated routes (the key belongs to the caller's integration, so two integrations never collide),
 *   `'path'` for public routes whose path names their resource (e.g. `/api/public/quotes/<token>/accept`), or
 *   `'vehicle'` for public routes whose body names a vehicle (`vehicleId`, validated by the route's schema). The use
 *   case's work then runs in the transaction that stores the response (see `makeRunIdempotently`). A repeat with the
 *   same key and the same request (method, path, canonical JSON body) gets the first response again, same status and
 *   body, with `Idempotent-Replayed: true`, without running; a different request under the key gets 422
 *   IDEMPOTENCY_KEY_REUSED; a repeat while the first is still running gets 409 IDEMPOTENCY_IN_PROGRESS.
 * - Errors thrown by the use case leave through the app's error handler as usual; those that map to a 4xx other
 *   than 429 are stored and replayed like any response. 429 and 5xx are not stored: a retry with the key runs again.
 * - Keys are kept 24 hours; the composition root purges expired ones periodically.
 *
 * Declare `headers: idempotencyKeyHeaders` in the route schema, so the header appears in the OpenAPI document and a
 * malformed one is refused before the body is looked at; list 409 and 422 among the route's error responses.
 */
import { idempotencyScope, IDEMPOTENCY_KEY_MAX_LENGTH, requestHash, type TransactionalUseCase } from '@garage/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

export type IdempotencyScopeKind = 'integration' | 'path' | 'vehicle';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

export const idempotencyKeyHeaders = Type.Object({
  [IDEMPOTENCY_KEY_HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      description:
        'Makes a retry safe: the same key with the same body within 24 hours returns the first response again, with ' +
        '`Idempotent-Replayed: true`. A different body under the key gives 422; a repeat while the first request is ' +
        'still running gives 409 IDEMPOTENCY_IN_PROGRESS. Use a fresh random value (a UUID) per operation.',
    }),
  ),
});

/** The path without query string or trailing slash (the router treats `/x/` as `/x`). */
const pathOf = (request: FastifyRequest): string => {
  const path = request.url.split('?', 1)[0] ?? request.url;
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
};

const scopeOf = (request: FastifyRequest, kind: IdempotencyScopeKind, path: string): string => {
  if (kind === 'path') return idempotencyScope.path(path);
  if (kind === 'vehicle') return idempotencyScope.vehicle((request.body as { vehicleId: string }).vehicleId);
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} uses integration-scoped idempotency without requireKey`);
  return idempotencyScope.integration(request.principal.integrationId);
};

/** What a handler answers: its use case and command, and the success status and body the use case's result gives. */
export interface IdempotentChange<Command, Result, Body> {
  useCase: TransactionalUseCase<Command, Result>;
  command: Command;
  status: number;
  body: (result: Result) => Body;
}

/**
 * Runs the change under the request's `Idempotency-Key` (see above), sets the status (and the replay header) on
 * `reply`, and returns the body for the handler to return.
 */
export const idempotent = async <Command, Result, Body>(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: IdempotencyScopeKind,
  { useCase, command, status, body }: IdempotentChange<Command, Result, Body>,
): Promise<Body> => {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) {
    const result = await useCase(command);
    reply.code(status);
    return body(result);
  }
  const key = Array.isArray(header) ? header.join(', ') : header;
  const path = pathOf(request);
  const response = await request.server.useCases.runIdempotently(
    { scope: scopeOf(request, scope, path), key, requestHash: requestHash({ method: request.method, path, body: request.body }) },
    // The command is checked inside: a refused one is a response stored under the key like any other.
    async (tx) => ({ status, body: body(await useCase.work(command)(tx)) }),
  );
  if (response.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  reply.code(response.status);
  // A replayed body is the JSON this route stored for the same request, so it has the route's response shape.
  return response.body as Body;
};
