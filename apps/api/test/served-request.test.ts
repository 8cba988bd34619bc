import t from 'tap';
import { recordOf, type ServedRequest } from '../src/http/served-request.js';

/** What the request-log hook keeps of a request; its record is made later, when its batch is written. */
const served = (extra: Partial<ServedRequest> = {}): ServedRequest => ({
  integrationId: '0b7f4a4e-6c3e-4d2a-9f1e-1b2c3d4e5f60',
  mode: 'live',
  requestId: 'order-42',
  receivedAt: Date.parse('2026-11-28T10:00:00.123Z'),
  method: 'GET',
  route: '/api/public/products',
  params: {},
  url: '/api/public/products',
  status: 200,
  errorText: null,
  apiVersion: '2026-11-01',
  durationMs: 3,
  ...extra,
});

t.test('a success: the route and its path, the time as a date, no error', async (t) => {
  t.same(recordOf(served()), {
    integrationId: '0b7f4a4e-6c3e-4d2a-9f1e-1b2c3d4e5f60',
    mode: 'live',
    requestId: 'order-42',
    receivedAt: new Date('2026-11-28T10:00:00.123Z'),
    method: 'GET',
    route: '/api/public/products',
    path: '/api/public/products',
    queryParameters: [],
    status: 200,
    errorCode: null,
    apiVersion: '2026-11-01',
    durationMs: 3,
    errorBody: null,
  });
});

t.test('the path is the route filled with its parameters, a secret one redacted; no route matched is [unmatched]', async (t) => {
  const appointment = recordOf(served({ route: '/api/public/appointments/:id', params: { id: 'a1' }, url: '/api/public/appointments/a1' }));
  t.match(appointment, { route: '/api/public/appointments/:id', path: '/api/public/appointments/a1' });
  const quote = recordOf(served({ route: '/api/public/quotes/:token', params: { token: 's3cret' }, url: '/api/public/quotes/s3cret' }));
  t.equal(quote.path, '/api/public/quotes/[redacted]');
  t.notOk(JSON.stringify(quote).includes('s3cret'));
  t.match(recordOf(served({ route: undefined, params: {}, url: '/nowhere' })), { route: '[unmatched]', path: '[unmatched]' });
});

t.test('the query is kept as its parameters\' names, each once, in order: never a value', async (t) => {
  const record = recordOf(served({ url: '/api/public/products?limit=2&&sku=A&=k3y&limit=3&api%4Bey=k3y&apiKey=k3y' }));
  t.same(record.queryParameters, ['limit', 'sku', 'apiKey']);
  t.notOk(JSON.stringify(record).includes('k3y'));
  const key = 'a'.repeat(32);
  const named = recordOf(served({ url: `/api/public/products?${key}&limit=1&x;${key}=1` }));
  t.same(named.queryParameters, ['[redacted]', 'limit'], 'a name that may be a key is redacted, as in a log line');
  t.notOk(JSON.stringify(named).includes(key));
});

t.test('an error: its body as sent and its code; a body that is not JSON is kept as neither', async (t) => {
  const body = { code: 'VALIDATION_FAILED', error: 'limit must be at most 500', details: [] };
  t.match(recordOf(served({ status: 400, errorText: JSON.stringify(body) })), { status: 400, errorCode: 'VALIDATION_FAILED', errorBody: body });
  t.match(recordOf(served({ status: 502, errorText: 'Bad gateway' })), { status: 502, errorCode: null, errorBody: null });
});
