/**
 * The redaction every process's pino logger applies (pino's `redact` option), one definition for the API and the
 * worker: should a line ever carry headers, a query or a key, the credentials are still hidden
 * (docs/operators/logging.md).
 */
export const LOG_REDACTION = {
  paths: ['headers["x-api-key"]', 'headers.authorization', 'query.apiKey', 'apiKey', 'webhookSecret'],
  censor: '[REDACTED]',
};
