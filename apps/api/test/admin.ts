import { parseEncryptionKey } from '@garage/domain';
import type { Db } from '@garage/postgres';
import { ENCRYPTION_KEY } from './helper.js';
import { makeAdminUseCases, type AdminUseCases } from '@garage/composition';

/** The operator's use-cases on a database of the test's own (as `build` gives for its fresh database). */
export const adminFor = (db: Db): AdminUseCases => makeAdminUseCases(db, [parseEncryptionKey(ENCRYPTION_KEY, 'ENCRYPTION_KEY')]);
