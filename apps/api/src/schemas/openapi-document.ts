/**
 * What the route schemas cannot say, added to the generated OpenAPI document in one place (CONTRACT.md §7): the
 * response headers every operation sends, 405 on every operation (a known path with another method), and the
 * request bodies that may be omitted.
 */

/** Operations whose body is optional (an empty or absent body is read as `{}`, see http/optional-body.ts). */
export const OPTIONAL_BODY_OPERATIONS = new Set(['acceptQuote', 'refuseQuote', 'cancelAppointment']);

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  requestBody?: Json & { required?: boolean };
  responses?: Record<string, Json & { headers?: Json; content?: Json }>;
}

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

const REQUEST_ID = header('The request id: the `x-request-id` sent, when it is 1–128 characters of `[A-Za-z0-9._-]`, else a new one');
const CONDITIONAL = {
  etag: header('Strong entity tag of the body; send it back as `If-None-Match` to get 304 when nothing changed'),
  'cache-control': header('`private, no-cache`: keep the body, revalidate it with `If-None-Match`'),
};
const RATE_LIMITED = {
  'retry-after': header('Seconds until the limit resets', { type: 'integer' }),
  'ratelimit-limit': header('Requests allowed in the window', { type: 'integer' }),
  'ratelimit-remaining': header('Requests left in the window', { type: 'integer' }),
  'ratelimit-reset': header('Seconds until the window resets', { type: 'integer' }),
};

/** For @fastify/swagger's `transformObject`: completes every operation of the generated document. */
export const completeDocument = <D extends { paths?: Record<string, Record<string, unknown>> }>(document: D): D => {
  for (const item of Object.values(document.paths ?? {})) {
    for (const value of Object.values(item)) {
      const operation = value as Operation;
      if (!operation.responses) continue;
      if (operation.requestBody && operation.operationId && OPTIONAL_BODY_OPERATIONS.has(operation.operationId)) {
        operation.requestBody.required = false;
      }
      const errorBody = operation.responses['400']?.content;
      if (errorBody && !operation.responses['405']) {
        operation.responses['405'] = {
          description: 'METHOD_NOT_ALLOWED: the path exists with other methods, listed in `Allow`',
          headers: { allow: header('The methods of the path') },
          content: errorBody,
        };
      }
      const conditional = '304' in operation.responses;
      for (const [status, response] of Object.entries(operation.responses)) {
        response.headers = {
          ...response.headers,
          'x-request-id': REQUEST_ID,
          ...(conditional && (status === '200' || status === '304') ? CONDITIONAL : {}),
          ...(status === '429' ? RATE_LIMITED : {}),
        };
      }
    }
  }
  return document;
};
