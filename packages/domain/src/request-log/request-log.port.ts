import type { Mode } from '../integrations/integration.js';
import type { KeysetPosition } from '../kernel/pagination.js';
import type { NewRequestRecord, RequestRecord } from './request-record.js';

/** A range of statuses, inclusive: `404` is 404–404, `4xx` is 400–499. */
export interface StatusRange {
  min: number;
  max: number;
}

export interface RequestLogQuery {
  integrationId: string;
  mode: Mode;
  limit: number;
  /** Newest first: the page continues with records older than this position. */
  after: KeysetPosition | null;
  status: StatusRange | null;
  route: string | null;
  since: Date | null;
}

/** Where request records are kept (docs/reference/contract.md §10). */
export interface RequestLog {
  /** Stores the records in one write; the batching happens before (the recorder). */
  append(records: readonly NewRequestRecord[]): Promise<void>;
  /** An integration's records of one mode, newest first. */
  list(query: RequestLogQuery): Promise<RequestRecord[]>;
  /** The newest record of this integration and mode that carried this `x-request-id`. */
  findByRequestId(integrationId: string, mode: Mode, requestId: string): Promise<RequestRecord | null>;
}
