import { parseEncryptionKey, type AdminUseCases } from '@garage/domain';
import { makeAdminUseCasesOn, type Db } from '@garage/postgres';
import { ENCRYPTION_KEY } from './helper.js';

/** The operator's use-cases on a database of the test's own (as `build` gives for its fresh database). */
export const adminFor = (db: Db): AdminUseCases => makeAdminUseCasesOn(db, [parseEncryptionKey(ENCRYPTION_KEY, 'ENCRYPTION_KEY')]);
