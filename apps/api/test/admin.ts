import { makeAdminUseCases, makeSecretBox, systemClock, type AdminUseCases } from '@garage/domain';
import { makeDeliveryQueue, makeRepositories, makeUnitOfWork, parseEncryptionKey, type Db } from '@garage/postgres';
import { ENCRYPTION_KEY } from './helper.js';

/** The operator's use-cases on a database of the test's own (as `build` gives for its fresh database). */
export const adminFor = (db: Db): AdminUseCases =>
  makeAdminUseCases({
    repos: makeRepositories(db),
    uow: makeUnitOfWork(db),
    secretBox: makeSecretBox([parseEncryptionKey(ENCRYPTION_KEY, 'ENCRYPTION_KEY')]),
    clock: systemClock,
    deliveries: makeDeliveryQueue(db),
  });
