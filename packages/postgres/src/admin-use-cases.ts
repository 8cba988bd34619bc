import {
  makeAdminUseCases,
  makeDestinationPolicy,
  makeSecretBox,
  systemClock,
  type AdminUseCases,
  type Clock,
  type DestinationPolicy,
  type EncryptionKey,
} from '@garage/domain';
import type { Db } from './db.js';
import { makeRepositories, makeUnitOfWork } from './repositories/index.js';
import { makeDeliveryQueue } from './webhooks/delivery-queue.js';

/**
 * The operator's use cases over one database, wired once: the CLI, the API's embedded demo seeding and the tests
 * all take them from here. `encryptionKeys` are the active key first, then former ones (see `openStorage`).
 * `destinations` judges configured webhook URLs; by default only public addresses are accepted.
 */
export const makeAdminUseCasesOn = (
  db: Db,
  encryptionKeys: EncryptionKey[],
  clock: Clock = systemClock,
  destinations: DestinationPolicy = makeDestinationPolicy(),
): AdminUseCases =>
  makeAdminUseCases({
    repos: makeRepositories(db),
    uow: makeUnitOfWork(db),
    secretBox: makeSecretBox(encryptionKeys),
    clock,
    deliveries: makeDeliveryQueue(db),
    destinations,
  });
