import { makeDestinationPolicy, parseEncryptionKey } from '@garage/domain';
import type { Db } from '@garage/postgres';
import { ENCRYPTION_KEY, LOOPBACK_NETWORKS } from './helper.js';
import { makeAdminUseCases, type AdminUseCases } from '@garage/composition';

/**
 * The operator's use-cases on a database of the test's own (as `build` gives for its fresh database), configured as
 * with `WEBHOOK_ALLOWED_NETWORKS` set to loopback, where the tests' webhook receivers listen.
 */
export const adminFor = (db: Db): AdminUseCases =>
  makeAdminUseCases(db, [parseEncryptionKey(ENCRYPTION_KEY, 'ENCRYPTION_KEY')], undefined, makeDestinationPolicy(LOOPBACK_NETWORKS.split(',')));
