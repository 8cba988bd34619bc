/**
 * Every `code` an API error body carries, in the order of the contract's error table. The domain's
 * codes plus those only HTTP produces: a version no version has, a method the path does not have, a body too large
 * or not JSON, headers too large. The OpenAPI document lists them in this order. A domain code missing here fails to compile where the error
 * handler looks up its status.
 */
export const API_ERROR_CODES = [
  'VALIDATION_FAILED',
  'INVALID_REFERENCE',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'DUPLICATE',
  'SLOT_FULL',
  'DATES_UNAVAILABLE',
  'QUOTE_ALREADY_PROCESSED',
  'QUOTE_EXPIRED',
  'IDEMPOTENCY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'APPOINTMENT_NOT_CHANGEABLE',
  'WEBHOOK_NOT_CONFIGURED',
  'SANDBOX_LIMIT',
  'VERSION_UNSUPPORTED',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'UNAVAILABLE',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

