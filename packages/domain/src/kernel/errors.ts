/**
 * Domain errors carry a stable `code` from the contract (docs/reference/contract.md §2). Transports map the code to their own
 * representation (HTTP status, CLI exit); the domain never knows about either.
 */
export const ERROR_CODES = [
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
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  path: string;
  message: string;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message);
    this.code = code;
    this.details = details;
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super('VALIDATION_FAILED', message, details);
  }
}

export class InvalidReferenceError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super('INVALID_REFERENCE', message, details);
  }
}

/**
 * The one message of every 401, whatever the reason (missing, malformed, unknown or revoked key, a toggle that is
 * off): a caller probing keys learns nothing from it about which keys exist or what they may do.
 */
export const UNAUTHORIZED_MESSAGE = 'Missing, unknown or revoked API key, or the integration may not use this endpoint';

export class UnauthorizedError extends DomainError {
  constructor() {
    super('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super('NOT_FOUND', message);
  }
}

export class DuplicateError extends DomainError {
  constructor(message = 'Already exists') {
    super('DUPLICATE', message);
  }
}

export class SlotFullError extends DomainError {
  constructor(message = 'A slot covered by this appointment is already at capacity') {
    super('SLOT_FULL', message);
  }
}

export class DatesUnavailableError extends DomainError {
  constructor(message = 'The requested time is not bookable') {
    super('DATES_UNAVAILABLE', message);
  }
}

export class QuoteAlreadyProcessedError extends DomainError {
  constructor(message = 'The quote was already accepted or refused') {
    super('QUOTE_ALREADY_PROCESSED', message);
  }
}

export class QuoteExpiredError extends DomainError {
  constructor(message = 'The quote has expired') {
    super('QUOTE_EXPIRED', message);
  }
}

export class IdempotencyInProgressError extends DomainError {
  constructor(message = 'A request with this Idempotency-Key is still being processed') {
    super('IDEMPOTENCY_IN_PROGRESS', message);
  }
}

export class IdempotencyKeyReusedError extends DomainError {
  constructor(message = 'This Idempotency-Key was already used with a different request') {
    super('IDEMPOTENCY_KEY_REUSED', message);
  }
}

export class AppointmentNotChangeableError extends DomainError {
  constructor(message = 'The appointment can no longer be changed: it is cancelled, completed, a no-show, or has started') {
    super('APPOINTMENT_NOT_CHANGEABLE', message);
  }
}

export class WebhookNotConfiguredError extends DomainError {
  constructor(message = 'This integration has no webhook URL; an operator sets one with `integration update --webhook-url`') {
    super('WEBHOOK_NOT_CONFIGURED', message);
  }
}

/** A sandbox holds at most so many appointments and quotes (docs/reference/contract.md §9); a reset empties it. */
export class SandboxLimitError extends DomainError {
  constructor(message = 'The sandbox already holds the most appointments or quotes it may; reset it to start again') {
    super('SANDBOX_LIMIT', message);
  }
}

export class UnavailableError extends DomainError {
  constructor(message = 'A required dependency is unavailable; retry later') {
    super('UNAVAILABLE', message);
  }
}

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainError;
