import { API_ERROR_CODES } from '../http/error-codes.js';
import { Type, type TSchema } from 'typebox';

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Human-readable message' }),
    code: Type.Enum([...API_ERROR_CODES], { description: 'Stable machine-readable code (see the error table)', examples: ['VALIDATION_FAILED'] }),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({ description: 'JSON pointer to the offending field, e.g. /customer/email or /limit' }),
          message: Type.String(),
        }),
      ),
    ),
  },
  { additionalProperties: false, title: 'Error' },
);

const DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_FAILED (with details), INVALID_REFERENCE, or VERSION_UNSUPPORTED (a Garage-Version no version has; details list the supported ones)',
  401: 'UNAUTHORIZED: API key missing, unknown or revoked, or the sync toggle is off',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED: the path exists, not with this method; `Allow` lists its methods',
  409: 'Conflict (see code)',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'IDEMPOTENCY_KEY_REUSED',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  500: 'INTERNAL',
  503: 'UNAVAILABLE: a required dependency is unreachable; retry later',
};

/**
 * The error responses a route may send, all with the one error body. Every route lists 500 and 503 as well, so that
 * a schema exists for every status it can send.
 */
export const errorResponses = (...statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries(
    [...statuses, 500, 503].map((status) => [
      status,
      { ...ErrorBody, 'x-response-description': DESCRIPTIONS[status] ?? 'Error', description: 'Error body' },
    ]),
  );

/** A 304 has no body; `type: null` keeps the serializer and the OpenAPI document right. */
export const NotModified = Type.Unsafe<null>({ type: 'null', description: 'Not Modified: the If-None-Match ETag matches' });
