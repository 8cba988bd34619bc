import t from 'tap';
import { loggedUrl, redactQuery } from '../src/logging.js';

// docs/reference/contract.md §1: logged URLs never hold a key, and quote paths never their token.
t.test('redactQuery keeps a query that names no key, and redacts every spelling of one', async (t) => {
  for (const query of ['', 'limit=100&cursor=abc.def', 'garageSlug=g&make=Renault', 'category=quotes', 'q=%20']) {
    t.equal(redactQuery(query), query, query);
  }
  const key = '0123456789abcdef0123456789abcdef';
  const cases: [string, string][] = [
    [`apiKey=${key}`, 'apiKey=[REDACTED]'],
    [`limit=2&APIKEY=${key}&sku=A`, 'limit=2&APIKEY=[REDACTED]&sku=A'],
    [`api%4Bey=${key}`, 'api%4Bey=[REDACTED]'],
    [`%61piKey=${key}`, '%61piKey=[REDACTED]'],
    [`x=1;apiKey=${key}`, 'x=1;apiKey=[REDACTED]'],
    [`x=1#apiKey=${key}`, 'x=1#apiKey=[REDACTED]'],
    [`q=%20&apikey=${key}`, 'q=%20&apikey=[REDACTED]'],
  ];
  for (const [query, expected] of cases) {
    t.equal(redactQuery(query), expected, query);
    t.notMatch(redactQuery(query), key);
  }
});

t.test('loggedUrl names the path the router matched, never the URL as spelled; an unmatched path is not named', async (t) => {
  const quote = (url: string) => ({ url, routeOptions: { url: '/api/public/quotes/:token/accept' }, params: { token: 'secret-token' } });
  for (const url of ['/api/public/quotes/secret-token/accept', '/api/public/%71uotes/secret-token/accept', 'http://host/api/public/quotes/secret-token/accept']) {
    t.equal(loggedUrl(quote(url)), '/api/public/quotes/[redacted]/accept', url);
  }
  t.equal(loggedUrl(quote('/api/public/quotes/secret-token/accept?x=1&apiKey=k')), '/api/public/quotes/[redacted]/accept?x=1&apiKey=[REDACTED]');
  t.equal(
    loggedUrl({ url: '/api/public/fleet/abc?garageSlug=g', routeOptions: { url: '/api/public/fleet/:vehicleId' }, params: { vehicleId: 'abc' } }),
    '/api/public/fleet/abc?garageSlug=g',
    'other parameters are named',
  );
  t.equal(loggedUrl({ url: '/api/public/quotes/x/y', routeOptions: { url: '/api/public/*' }, params: { '*': 'quotes/x/y' } }), '/api/public/*', 'a wildcard');
  t.equal(loggedUrl({ url: '/api%2Fpublic/quotes/secret-token#apiKey=k', routeOptions: {} }), '[unmatched]#apiKey=[REDACTED]');
});
