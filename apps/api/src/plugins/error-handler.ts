import { isDomainError, UNAUTHORIZED_MESSAGE, type ErrorDetail } from '@garage/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { TLocalizedValidationError } from 'typebox/error';
import fp from 'fastify-plugin';
import { pointerSegment } from '../http/json-pointer.js';
import type { ApiErrorCode } from '../http/error-codes.js';
import { VersionUnsupportedError } from '../http/version-unsupported.js';
import { redactedPath, shownName } from '../logging.js';

/** The one mapping from contract codes to HTTP statuses (docs/reference/contract.md §2). */
export const STATUS_OF: Record<ApiErrorCode, number> = {
  VALIDATION_FAILED: 400,
  INVALID_REFERENCE: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  DUPLICATE: 409,
  SLOT_FULL: 409,
  DATES_UNAVAILABLE: 409,
  QUOTE_ALREADY_PROCESSED: 409,
  QUOTE_EXPIRED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  APPOINTMENT_NOT_CHANGEABLE: 409,
  WEBHOOK_NOT_CONFIGURED: 409,
  SANDBOX_LIMIT: 409,
  VERSION_UNSUPPORTED: 400,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

export interface ErrorBody {
  error: string;
  code: ApiErrorCode;
  details?: ErrorDetail[];
}

const INTERNAL: ErrorBody = { error: 'Internal server error', code: 'INTERNAL' };

const PART_NAMES: Record<string, string> = {
  body: 'request body',
  querystring: 'query string',
  params: 'path parameters',
  headers: 'request headers',
};

/**
 * The validation errors of the app's one validator compiler (schemas/compiler.ts: TypeBox's, which Fastify hands on as
 * the error's `validation`) as the contract's `details`: JSON pointers to the offending field (`/customer/email`,
 * `/limit`), one entry per field, the first problem found for it. Read through TypeBox's documented error types.
 */
const detailsOf = (errors: readonly TLocalizedValidationError[], part: string): ErrorDetail[] => {
  const details = new Map<string, string>();
  const add = (path: string, message: string) => {
    if (!details.has(path)) details.set(path, message);
  };
  for (const e of errors) {
    if (e.keyword === 'additionalProperties') {
      const what = part === 'body' ? 'property' : 'parameter';
      // An unknown query parameter is named as a log line names it: a key sent as a name stays out of the error body,
      // and so out of the request log that stores it.
      for (const name of e.params.additionalProperties) {
        add(`${e.instancePath}/${pointerSegment(part === 'querystring' ? shownName(name) : name)}`, `is not an allowed ${what}`);
      }
    } else if (e.keyword === 'required') {
      for (const name of e.params.requiredProperties) add(`${e.instancePath}/${pointerSegment(name)}`, 'is required');
    } else if (e.keyword === 'boolean' && e.schemaPath.endsWith('additionalProperties')) {
      // the same unknown property, reported again by TypeBox as "schema is false"
    } else {
      add(e.instancePath, e.message);
    }
  }
  return [...details].map(([path, message]) => ({ path, message }));
};

/** Errors raised by Fastify itself before a handler runs, by status. Their own messages are not part of the contract. */
const FRAMEWORK_ERRORS: Record<number, ErrorBody> = {
  401: { error: UNAUTHORIZED_MESSAGE, code: 'UNAUTHORIZED' },
  404: { error: 'Not found', code: 'NOT_FOUND' },
  413: { error: 'Request body is larger than 64 KiB', code: 'PAYLOAD_TOO_LARGE' },
  415: { error: 'Request body must be JSON (Content-Type: application/json)', code: 'UNSUPPORTED_MEDIA_TYPE' },
  429: { error: 'Too many requests; retry after the delay in the Retry-After header', code: 'RATE_LIMITED' },
  503: { error: 'Service unavailable; retry later', code: 'UNAVAILABLE' },
};

const MALFORMED_BODY: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON in request body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty although Content-Type is application/json',
};

/** Maps anything thrown while handling a request to a status and the contract's error body. */
export const toHttpError = (err: unknown): { status: number; body: ErrorBody } => {
  if (err instanceof VersionUnsupportedError) {
    return { status: 400, body: { error: err.message, code: err.code, details: err.details } };
  }
  if (isDomainError(err)) {
    const status = STATUS_OF[err.code] ?? 500;
    if (status >= 500 && err.code !== 'UNAVAILABLE') return { status: 500, body: INTERNAL };
    const body: ErrorBody = { error: err.message, code: err.code };
    if (err.details && err.details.length > 0) body.details = err.details;
    return { status, body };
  }
  const fastifyError = err as Partial<FastifyError> | null;
  if (fastifyError?.validation) {
    const part = fastifyError.validationContext ?? 'body';
    return {
      status: 400,
      body: {
        error: `Invalid ${PART_NAMES[part] ?? part}`,
        code: 'VALIDATION_FAILED',
        // Produced by schemas/compiler.ts, the only validator compiler the app sets.
        details: detailsOf(fastifyError.validation as unknown as TLocalizedValidationError[], part),
      },
    };
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known = FRAMEWORK_ERRORS[status];
    if (known) return { status, body: known };
    const message = MALFORMED_BODY[fastifyError?.code ?? ''] ?? 'Malformed request';
    return { status: 400, body: { error: message, code: 'VALIDATION_FAILED' } };
  }
  if (status === 503) return { status, body: FRAMEWORK_ERRORS[503] as ErrorBody };
  return { status: 500, body: INTERNAL };
};

/**
 * One error handler for the whole app: every error, 404 and framework failure leaves as `{error, code}`. Server
 * errors are logged with their stack and answered with a generic message; client errors are logged at info level.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err, request, reply) => {
      const { status, body } = toHttpError(err);
      if (status >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ code: body.code, status }, body.error);
      return reply.code(status).send(body);
    });

    // A known path with a wrong method never gets here: its 405 is a route (plugins/method-not-allowed.ts).
    app.setNotFoundHandler((request, reply) => {
      // The path only, and no quote token: the query string may hold a discouraged apiKey.
      const path = redactedPath(request.url);
      return reply.code(404).send({ error: `Route ${request.method} ${path} not found`, code: 'NOT_FOUND' } satisfies ErrorBody);
    });
  },
  { name: 'error-handler' },
);

/** For `frameworkErrors`: failures of the router (bad URL encoding, over-long parameters) get the same body. */
export const frameworkErrorHandler = (err: FastifyError): { status: number; body: ErrorBody } => {
  const mapped = toHttpError(err);
  return mapped.status === 500 ? { status: 400, body: { error: 'Malformed request URL', code: 'VALIDATION_FAILED' } } : mapped;
};
