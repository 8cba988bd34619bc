import t from 'tap';
import { canonicalJson, requestHash } from './support.js';

t.test('requestHash: canonical JSON ignores key order, not values, method or path', async (t) => {
  const body = { customer: { name: 'J', email: 'j@x.fr' }, startsAt: 's', productIds: ['a', 'b'] };
  const reordered = { startsAt: 's', productIds: ['a', 'b'], customer: { email: 'j@x.fr', name: 'J' } };
  const hash = (method: string, path: string, b: unknown) => requestHash({ method, path, body: b });
  t.equal(hash('POST', '/p', body), hash('post', '/p', reordered));
  t.equal(hash('POST', '/p', { ...body, notes: undefined }), hash('POST', '/p', body));
  t.not(hash('POST', '/p', body), hash('POST', '/p', { ...body, productIds: ['b', 'a'] }));
  t.not(hash('POST', '/p', body), hash('POST', '/q', body));
  t.not(hash('POST', '/p', { n: 1 }), hash('POST', '/p', { n: '1' }));
  t.not(hash('POST', '/p', undefined), hash('POST', '/p', null));
  t.match(hash('POST', '/p', body), /^[0-9a-f]{64}$/);
  t.equal(canonicalJson({ b: [1, { d: null, c: 'é' }], a: true }), '{"a":true,"b":[1,{"c":"é","d":null}]}');
});
