/** What every feature shares: errors, time, transactions, paging, ids and secrets at rest. */
export {
  DomainError,
  ERROR_CODES,
  AppointmentNotChangeableError,
  DuplicateError,
  IdempotencyInProgressError,
  IdempotencyKeyReusedError,
  InvalidReferenceError,
  isDomainError,
  NotFoundError,
  QuoteAlreadyProcessedError,
  QuoteExpiredError,
  SlotFullError,
  DatesUnavailableError,
  UnauthorizedError,
  UNAUTHORIZED_MESSAGE,
  UnavailableError,
  WebhookNotConfiguredError,
  ValidationError,
  type ErrorCode,
  type ErrorDetail,
} from './errors.js';
export { systemClock, type Clock } from './clock.port.js';
export { isPromise, whenReady, type Awaitable } from './awaitable.js';
export type { Repositories, Transaction, UnitOfWork } from './unit-of-work.port.js';
export type { KeysetPosition, KeysetQuery } from './pagination.js';
export type { Page, PageRequest } from './page.js';
export { makeCursorCodec, type CursorCodec } from './cursor.js';
export type { ListName, ListVersionProbe } from './list-version.port.js';
export { isUuid, UUID_PATTERN } from './ids.js';
export { CONTACT_LIMITS } from './contact.js';
export { deriveSubkey, ENCRYPTION_KEY_BYTES, parseEncryptionKey, type EncryptionKey } from './encryption-key.js';
export { makeSecretBox, type SecretBox } from './secret-box.js';
