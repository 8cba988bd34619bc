import type { ErrorDetail } from '@garage/domain';

/**
 * A `Garage-Version` naming no supported version (docs/reference/contract.md §8). Versions are a transport concern,
 * so this error is the API's own; `details` list the supported versions.
 */
export class VersionUnsupportedError extends Error {
  readonly code = 'VERSION_UNSUPPORTED';
  readonly details: ErrorDetail[];

  constructor(message: string, details: ErrorDetail[]) {
    super(message);
    this.details = details;
    this.name = 'VersionUnsupportedError';
  }
}
