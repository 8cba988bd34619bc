import type { Mode } from '../integrations/integration.js';

/**
 * What the API saw of one key-authenticated request (docs/reference/contract.md §10): never a request body, a success
 * body, a header or a query value; the path with its secrets redacted.
 */
export interface RequestRecord {
  id: string;
  /** The integration whose key authenticated the request: in test mode, the integration's test side. */
  integrationId: string;
  mode: Mode;
  /** The value of `x-request-id` the response carried. */
  requestId: string;
  receivedAt: Date;
  method: string;
  /** The route pattern, such as `/api/public/appointments/:appointmentId`. */
  route: string;
  path: string;
  /** The names of the query parameters sent, in order, each once; never their values. */
  queryParameters: string[];
  status: number;
  /** The `code` of the error body, null for a success. */
  errorCode: string | null;
  /** The API version the request was served at. */
  apiVersion: string;
  durationMs: number;
  /** The error body the connector received, null for a success. */
  errorBody: unknown;
}

/** A record before it is stored: the store gives it its id. */
export type NewRequestRecord = Omit<RequestRecord, 'id'>;
