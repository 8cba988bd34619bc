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
} from '../errors.js';
export { systemClock, type Clock } from '../ports/clock.port.js';
export { isPromise, whenReady, type Awaitable } from '../services/awaitable.js';
export type { Repositories, Transaction, UnitOfWork } from '../ports/unit-of-work.port.js';
export type { KeysetPosition, KeysetQuery } from '../ports/pagination.js';
export type { Page, PageRequest } from '../use-cases/page.js';
export { makeCursorCodec, type CursorCodec } from '../services/cursor.js';
export type { ListName, ListVersionProbe } from '../ports/list-version.port.js';
export { isUuid, UUID_PATTERN } from '../services/uuid.js';
export { CONTACT_LIMITS } from '../services/contact.js';
export { deriveSubkey, ENCRYPTION_KEY_BYTES, parseEncryptionKey, type EncryptionKey } from '../services/encryption-key.js';
export { BOUND_NONCE_PREFIX, makeSecretBox, type SecretBox } from '../services/secret-box.js';
