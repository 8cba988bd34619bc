/**
 * What every process's logger hides, should a line ever carry it (pino's `redact` option): the API key and
 * authorization headers, an `apiKey` query parameter or field. The API and the worker log with the same list
 * (docs/operators/logging.md).
 */
export const LOG_REDACTION = {
  paths: ['headers["x-api-key"]', 'headers.authorization', 'query.apiKey', 'apiKey'],
  censor: '[REDACTED]',
};
