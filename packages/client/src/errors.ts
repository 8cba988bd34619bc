import type { components } from './generated/openapi.js';

/** The error body of every failed request (docs/reference/contract.md §2). */
export type ErrorBody = components['schemas']['Error'];
/** Every error code the API answers with, from the document. */
export type ErrorCode = ErrorBody['code'];
export type ErrorDetail = NonNullable<ErrorBody['details']>[number];

/** A request the API answered with an error status. `code` is the contract's code, stable for programs to branch on. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  /** The `x-request-id` of the failed request: quote it to the garage's support. */
  readonly requestId: string | null;

  constructor(status: number, code: ErrorCode, message: string, details: ErrorDetail[] | undefined, requestId: string | null) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
  }

  /** From a response and its parsed body; a body that is not the error shape (a proxy's page) still gives an error. */
  static from(response: Response, body: unknown): ApiError {
    const requestId = response.headers.get('x-request-id');
    if (typeof body === 'object' && body !== null && 'code' in body && 'error' in body) {
      const { code, error, details } = body as ErrorBody;
      return new ApiError(response.status, code, error, details, requestId);
    }
    const code: ErrorCode = response.status >= 500 ? 'UNAVAILABLE' : 'INTERNAL';
    return new ApiError(response.status, code, `HTTP ${response.status} without an error body`, undefined, requestId);
  }
}
