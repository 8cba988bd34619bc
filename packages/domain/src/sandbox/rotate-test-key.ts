import type { Clock } from '../kernel/clock.port.js';
import { NotFoundError } from '../kernel/errors.js';
import type { SecretBox } from '../kernel/secret-box.js';
import type { UnitOfWork } from '../kernel/unit-of-work.port.js';
import { generateApiKey, keyEnding, sha256Hex } from '../integrations/api-key.js';
import { overlapMs } from '../integrations/rotation-overlap.js';
import { testSideToRotate } from './provision-sandbox.js';

/**
 * `integration rotate-key ID --test`: a new test key, shown once; the old one keeps working for `overlapHours`. An
 * integration made before sandboxes existed gets its sandbox now, and this is its first test key.
 */
export const makeRotateTestKey =
  ({ uow, secretBox, clock }: { uow: UnitOfWork; secretBox: SecretBox; clock: Clock }) =>
  async (id: string, { overlapHours = 0 }: { overlapHours?: number } = {}) => {
    const overlap = overlapMs(overlapHours);
    return uow.run(async (tx) => {
      const { live, testSide, provisioned } = await testSideToRotate(tx, id, secretBox);
      const now = clock.now();
      if (provisioned) return { id: live.id, testApiKey: provisioned.testApiKey, previousKeyExpiresAt: now };
      const testApiKey = generateApiKey();
      const rotated = await tx.integrations.rotateKey(testSide.id, sha256Hex(testApiKey), now, overlap, keyEnding(testApiKey));
      if (!rotated) throw new NotFoundError(`Integration ${id} not found or revoked`);
      return { id: live.id, testApiKey, previousKeyExpiresAt: rotated.previousKeyExpiresAt };
    });
  };
