import { Type } from 'typebox';
import { DateTime, Nullable } from './common.js';

/** docs/reference/contract.md §10. */
const REQUEST_ID = '^[A-Za-z0-9._-]{1,128}$';

export const RequestRecord = Type.Object(
  {
    requestId: Type.String({ description: 'The `x-request-id` of the response' }),
    receivedAt: DateTime(),
    mode: Type.Enum(['live', 'test'], { description: '`test` for a request made with the test key' }),
    method: Type.String(),
    route: Type.String({ description: 'The route pattern, such as `/api/public/appointments/:appointmentId`' }),
    path: Type.String({ description: 'The path, quote tokens shown as `[redacted]`' }),
    queryParameters: Type.Array(Type.String(), { description: 'The names of the query parameters sent (never their values)' }),
    status: Type.Integer({ description: 'The HTTP status answered' }),
    errorCode: Nullable(Type.String({ description: 'The `code` of the error body; null for a success' })),
    apiVersion: Type.String({ description: 'The API version the request was served at' }),
    durationMs: Type.Integer({ minimum: 0 }),
    errorBody: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'The error body the connector received; null for a success' })),
  },
  { additionalProperties: false, title: 'RequestRecord' },
);

export const RequestParams = Type.Object(
  { requestId: Type.String({ pattern: REQUEST_ID, description: 'The `x-request-id` the API answered with' }) },
  { additionalProperties: false },
);

export const requestListQueryFields = {
  status: Type.Optional(Type.String({ pattern: '^[1-5](\\d\\d|xx)$', description: 'A status such as `404`, or a class such as `4xx`' })),
  route: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A route pattern, such as `/api/public/appointments`' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; only requests received at or after this time' })),
};
