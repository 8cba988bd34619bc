import type { Clock } from '../kernel/clock.port.js';
import { NotFoundError } from '../kernel/errors.js';
import type { SecretBox } from '../kernel/secret-box.js';
import type { UnitOfWork } from '../kernel/unit-of-work.port.js';
import { idempotencyScope } from '../idempotency/request-hash.js';
import { provisionSandbox } from './provision-sandbox.js';

/**
 * Resets the sandbox of an integration (`integration sandbox-reset ID` with its live id, the test helper with the
 * test side's): its appointments, leads, quotes, events, deliveries and the test side's Idempotency-Key records are
 * emptied, and the live garage's settings, closures, catalog, stock and vehicles copied again, in one transaction.
 * An integration without a sandbox gets a fresh one.
 */
export const makeResetSandbox =
  ({ uow, secretBox, clock }: { uow: UnitOfWork; secretBox: SecretBox; clock: Clock }) =>
  async (integrationId: string): Promise<{ id: string; resetAt: Date }> =>
    uow.run(async (tx) => {
      const found = await tx.integrations.findById(integrationId);
      if (!found || found.revokedAt !== null) throw new NotFoundError(`Integration ${integrationId} not found or revoked`);
      const testSide = found.mode === 'test' ? found : await tx.integrations.findTestSide(found.id);
      if (!testSide) {
        await provisionSandbox(tx, found, secretBox);
        return { id: found.id, resetAt: clock.now() };
      }
      if (!(await tx.sandboxes.reset(testSide.garageId, [idempotencyScope.integration(testSide.id)]))) {
        throw new NotFoundError('Sandbox not found');
      }
      return { id: found.id, resetAt: clock.now() };
    });
