import type { Mode } from '../integrations/integration.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { ValidationError } from '../kernel/errors.js';
import { fetchPage, type Page, type PageRequest } from '../kernel/page.js';
import type { RequestLog, StatusRange } from './request-log.port.js';
import type { RequestRecord } from './request-record.js';

export interface ListRequestsQuery extends PageRequest {
  integrationId: string;
  mode: Mode;
  /** A status such as `404`, or a class such as `4xx`. */
  status: string | null;
  route: string | null;
  since: Date | null;
}

const STATUS_FILTER = /^([1-5])(\d\d|xx)$/;

/** `404` → 404–404, `4xx` → 400–499; anything else is refused as a bad query parameter. */
export const parseStatusFilter = (text: string): StatusRange => {
  const match = STATUS_FILTER.exec(text);
  if (!match) throw new ValidationError('Invalid status filter', [{ path: '/status', message: 'must be a status such as 404 or a class such as 4xx' }]);
  const [, hundreds, rest] = match;
  if (rest === 'xx') return { min: Number(hundreds) * 100, max: Number(hundreds) * 100 + 99 };
  const status = Number(text);
  return { min: status, max: status };
};

/** `GET /requests`: the calling integration's requests of the key's mode, newest first. */
export const makeListRequests =
  ({ log, cursors }: { log: Pick<RequestLog, 'list'>; cursors: CursorCodec }) =>
  (q: ListRequestsQuery): Promise<Page<RequestRecord>> => {
    const status = q.status === null ? null : parseStatusFilter(q.status);
    return fetchPage(
      cursors,
      `requests|${q.integrationId}|${q.mode}|${q.status ?? ''}|${q.route ?? ''}|${q.since?.toISOString() ?? ''}`,
      q,
      (r) => ({ sortValue: r.receivedAt, id: r.id }),
      (after, limit) => log.list({ integrationId: q.integrationId, mode: q.mode, limit, after, status, route: q.route, since: q.since }),
    );
  };
