import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so that two bodies differing only in key order (or in `undefined`
 * members, which JSON drops anyway) are the same request.
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/** SHA-256 hex of the method, the path (without query string) and the canonical JSON body. */
export const requestHash = (req: { method: string; path: string; body: unknown }): string =>
  createHash('sha256')
    .update(`${req.method.toUpperCase()} ${req.path}\n${req.body === undefined ? '' : canonicalJson(req.body)}`)
    .digest('hex');

/**
 * Idempotency-Key scopes (§4.1): the integration for appointments, the request path for the public POSTs. A path may
 * hold a secret (a quote token), so only its SHA-256 is stored (docs/reference/contract.md §1).
 */
export const idempotencyScope = {
  integration: (integrationId: string): string => `integration:${integrationId}`,
  path: (path: string): string => `path:${createHash('sha256').update(path).digest('hex')}`,
  /** Public routes about one vehicle: the vehicle names its garage, so two garages' websites never share keys. */
  vehicle: (vehicleId: string): string => `vehicle:${vehicleId}`,
};
