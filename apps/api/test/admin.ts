import { makeDestinationPolicy, parseEncryptionKey, type AdminUseCases } from '@garage/domain';
import { makeAdminUseCasesOn, type Db } from '@garage/postgres';
import { ENCRYPTION_KEY, LOOPBACK_NETWORKS } from './helper.js';

/**
 * The operator's use-cases on a database of the test's own (as `build` gives for its fresh database), configured as
 * with `WEBHOOK_ALLOWED_NETWORKS` set to loopback, where the tests' webhook receivers listen.
 */
export const adminFor = (db: Db): AdminUseCases =>
  makeAdminUseCasesOn(db, [parseEncryptionKey(ENCRYPTION_KEY, 'ENCRYPTION_KEY')], undefined, makeDestinationPolicy(LOOPBACK_NETWORKS.split(',')));
