import t from 'tap';
import { loggedQuery, loggedUrl } from '../src/logging.js';

// docs/reference/contract.md §1: logged URLs never hold a key, and quote paths never their token.
t.test('loggedQuery names the parameters, never their values, and no name shaped like a secret', async (t) => {
  const key = '0123456789abcdef0123456789abcdef';
  const cases: [string, string][] = [
    ['', ''],
    ['limit=100&cursor=abc.def', 'limit&cursor'],
    ['garageSlug=g&make=Renault', 'garageSlug&make'],
    [`apiKey=${key}`, 'apiKey'],
    [`limit=2&APIKEY=${key}&sku=A`, 'limit&APIKEY&sku'],
    [`api%4Bey=${key}`, 'apiKey'],
    [`%61piKey=${key}`, 'apiKey'],
    [`x=1;apiKey=${key}`, 'x&apiKey'],
    [`x=1#apiKey=${key}`, 'x&apiKey'],
    [`q=%20&apikey=${key}`, 'q&apikey'],
    // Near misses of the key parameter: their values are dropped like any other.
    [`api_key=${key}`, 'api_key'],
    [`key=${key}`, 'key'],
    [`apiKey[]=${key}`, 'apiKey[]'],
    [`apiKey%5B%5D=${key}`, 'apiKey[]'],
    [`x-api-key=${key}`, 'x-api-key'],
    // A name that may itself be the secret.
    [`apiKey%00=${key}`, '[redacted]'],
    [key, '[redacted]'],
    [`apiKey:${key}`, '[redacted]'],
    [`limit=1&${key}`, 'limit&[redacted]'],
    ['%E0%A4%A=1', '[redacted]'],
    // `+` is a space once decoded, and a space is no parameter name of ours.
    [`api+Key=${key}`, '[redacted]'],
    ['limit+=1', '[redacted]'],
    [`${key}+=1`, '[redacted]'],
  ];
  for (const [query, expected] of cases) {
    t.equal(loggedQuery(query), expected, query);
    t.notMatch(loggedQuery(query), key);
  }
});

t.test('loggedUrl names the path the router matched, never the URL as spelled; an unmatched path is not named', async (t) => {
  const quote = (url: string) => ({ url, routeOptions: { url: '/api/public/quotes/:token/accept' }, params: { token: 'secret-token' } });
  for (const url of ['/api/public/quotes/secret-token/accept', '/api/public/%71uotes/secret-token/accept', 'http://host/api/public/quotes/secret-token/accept']) {
    t.equal(loggedUrl(quote(url)), '/api/public/quotes/[redacted]/accept', url);
  }
  t.equal(loggedUrl(quote('/api/public/quotes/secret-token/accept?x=1&apiKey=k')), '/api/public/quotes/[redacted]/accept?x&apiKey');
  t.equal(
    loggedUrl({ url: '/api/public/fleet/abc?garageSlug=g', routeOptions: { url: '/api/public/fleet/:vehicleId' }, params: { vehicleId: 'abc' } }),
    '/api/public/fleet/abc?garageSlug',
    'other parameters are named, without their values',
  );
  t.equal(loggedUrl({ url: '/api/public/quotes/x/y', routeOptions: { url: '/api/public/*' }, params: { '*': 'quotes/x/y' } }), '/api/public/*', 'a wildcard');
  t.equal(loggedUrl({ url: '/api%2Fpublic/quotes/secret-token#apiKey=k', routeOptions: {} }), '[unmatched]#apiKey');
});
