import { ValidationError, type ErrorDetail } from './errors.js';

/**
 * A small collector for validating untrusted input that does not come through an HTTP schema (CLI arguments,
 * import files). It gathers every problem before failing so that an operator fixes a file in one pass.
 */
export class Checker {
  readonly details: ErrorDetail[] = [];

  fail(path: string, message: string): void {
    this.details.push({ path, message });
  }

  string(path: string, value: unknown, { min = 1, max = 255, optional = false } = {}): void {
    if (value === undefined || value === null) {
      if (!optional) this.fail(path, 'is required');
      return;
    }
    if (typeof value !== 'string' || value.length < min || value.length > max) {
      this.fail(path, `must be a string of ${min} to ${max} characters`);
    }
  }

  integer(path: string, value: unknown, { min = 0, max = Number.MAX_SAFE_INTEGER, optional = false } = {}): void {
    if (value === undefined || value === null) {
      if (!optional) this.fail(path, 'is required');
      return;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.fail(path, `must be an integer from ${min} to ${max}`);
    }
  }

  number(path: string, value: unknown, { min = 0, max = 100, optional = false } = {}): void {
    if (value === undefined || value === null) {
      if (!optional) this.fail(path, 'is required');
      return;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
      this.fail(path, `must be a number from ${min} to ${max}`);
    }
  }

  oneOf(path: string, value: unknown, allowed: readonly string[], { optional = false } = {}): void {
    if (value === undefined || value === null) {
      if (!optional) this.fail(path, 'is required');
      return;
    }
    if (typeof value !== 'string' || !allowed.includes(value)) this.fail(path, `must be one of ${allowed.join(', ')}`);
  }

  knownFields(path: string, value: object, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.fail(`${path}/${key}`, 'is not an allowed property');
    }
  }

  throwIfAny(message: string): void {
    if (this.details.length > 0) throw new ValidationError(message, this.details);
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const CURRENCY = /^[A-Z]{3}$/;
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 63;
/** What `createGarage` accepts as a slug: anything else cannot name a garage, so it needs no lookup to be refused. */
export const isSlug = (value: string): boolean => value.length <= SLUG_MAX_LENGTH && SLUG.test(value);
export const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
