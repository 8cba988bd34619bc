import type { StatusRange } from '@garage/domain';
import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * "`status` lies in `range`" in SQL, for a status read from a column, a record's field or a chunk's list of statuses
 * alike: what `?status=4xx` means is written once.
 */
export const statusWithin = (status: Expression<unknown>, range: StatusRange): RawBuilder<boolean> =>
  sql<boolean>`${status} between ${range.min} and ${range.max}`;
