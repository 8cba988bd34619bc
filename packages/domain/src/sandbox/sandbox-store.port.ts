import type { Garage } from '../garages/garage.js';
import type { SandboxLimits } from './sandbox.js';

/**
 * Sandboxes as garages of their own (docs/reference/contract.md §9). Copies are set-based: one statement per table,
 * whatever the size of the catalog. Copies keep the live rows' business keys (`sku`, `reference`) under new ids.
 */
export interface SandboxStore {
  /**
   * A new garage, the sandbox of `liveGarageId`, with its settings, closures, catalog, stock and vehicles copied and
   * `limits` set; no appointment, lead, quote or event. Throws `NOT_FOUND` when the live garage does not exist.
   */
  create(input: { liveGarageId: string; slug: string; limits: SandboxLimits }): Promise<Garage>;
  /**
   * Empties the sandbox's appointments, leads, quotes, events (with their deliveries) and the Idempotency-Key records
   * of `idempotencyScopes`, then copies the live garage's settings, closures, catalog, stock and vehicles again. False
   * when `sandboxGarageId` is not a sandbox.
   */
  reset(sandboxGarageId: string, idempotencyScopes: readonly string[]): Promise<boolean>;
}
