import type { Mode, NewRequestRecord } from '@garage/domain';
import { decodedName, loggedPathOf, ROUTED_PATH_END, shownName } from '../logging.js';

/**
 * What the request log keeps of a request when its response has gone: values the request already holds, nothing
 * worked out. Its record (`recordOf`) is made when its batch is written, for a thousand requests in one loop, rather
 * than on the path of each response.
 */
export interface ServedRequest {
  readonly integrationId: string;
  readonly mode: Mode;
  readonly requestId: string;
  /** Milliseconds since the epoch. */
  readonly receivedAt: number;
  readonly method: string;
  /** The pattern of the route matched; undefined when none was. */
  readonly route: string | undefined;
  /** The route's parameters, as the router gave them. */
  readonly params: unknown;
  /** The URL as the client sent it: its query's values are never kept, only their names. */
  readonly url: string;
  readonly status: number;
  /** The error body sent, as sent; null for a success. */
  readonly errorText: string | null;
  readonly apiVersion: string;
  readonly durationMs: number;
}

/**
 * The names of the query parameters, each once, in order, as a log line names them: their values are never kept, and
 * a name that may itself be a secret (a key sent as a name) is `[redacted]`.
 */
export const queryParameterNames = (url: string): string[] => {
  const end = url.search(ROUTED_PATH_END);
  if (end === -1) return [];
  const names = new Set<string>();
  for (const pair of url.slice(end + 1).split('&')) {
    const name = decodedName(pair);
    if (name !== '') names.add(shownName(name));
  }
  return [...names];
};

const NO_ERROR = { body: null, code: null } as const;

const errorBodyOf = (text: string | null): { body: unknown; code: string | null } => {
  if (text === null) return NO_ERROR;
  try {
    const body = JSON.parse(text) as { code?: unknown };
    return { body, code: typeof body.code === 'string' ? body.code : null };
  } catch {
    return NO_ERROR;
  }
};

/** A served request's record (docs/reference/contract.md §10): its path as logged, its query's names, its error. */
export const recordOf = (served: ServedRequest): NewRequestRecord => {
  const { body, code } = errorBodyOf(served.errorText);
  const path = loggedPathOf(served.route, served.params);
  return {
    integrationId: served.integrationId,
    mode: served.mode,
    requestId: served.requestId,
    receivedAt: new Date(served.receivedAt),
    method: served.method,
    route: served.route ?? path,
    path,
    queryParameters: queryParameterNames(served.url),
    status: served.status,
    errorCode: code,
    apiVersion: served.apiVersion,
    durationMs: served.durationMs,
    errorBody: body,
  };
};
