import t from 'tap';
import { redactUrl } from '../src/logging.js';

// CONTRACT.md §1: logged URLs never hold a key. Most URLs name none and are logged as they came (a fast path skips
// splitting them); any that might (an `apikey` in any case, or a `%` escape that could spell it) are split and decoded.
t.test('redactUrl keeps a query that cannot name a key, and redacts every spelling of one', async (t) => {
  for (const url of ['/api/public/products', '/api/public/products?limit=100&cursor=abc.def', '/api/public/fleet?garageSlug=g&make=Renault', '/api/public/products?category=quotes']) {
    t.equal(redactUrl(url), url, url);
  }
  const key = '0123456789abcdef0123456789abcdef';
  const cases: [string, string][] = [
    [`/p?apiKey=${key}`, '/p?apiKey=[REDACTED]'],
    [`/p?limit=2&APIKEY=${key}&sku=A`, '/p?limit=2&APIKEY=[REDACTED]&sku=A'],
    [`/p?api%4Bey=${key}`, '/p?api%4Bey=[REDACTED]'],
    [`/p?%61piKey=${key}`, '/p?%61piKey=[REDACTED]'],
    [`/p;apiKey=${key}`, '/p;apiKey=[REDACTED]'],
    [`/p?x=1#apiKey=${key}`, '/p?x=1#apiKey=[REDACTED]'],
    [`/p?q=%20&apikey=${key}`, '/p?q=%20&apikey=[REDACTED]'],
  ];
  for (const [url, expected] of cases) {
    t.equal(redactUrl(url), expected, url);
    t.notMatch(redactUrl(url), key);
  }
  t.equal(redactUrl('/api/public/quotes/secret-token/accept?x=1'), '/api/public/quotes/[redacted]/accept?x=1', 'quote token');
  t.equal(redactUrl('/api/public/quotes/secret-token'), '/api/public/quotes/[redacted]', 'quote token, no query');
  t.equal(redactUrl(`/api/public/quotes/secret-token/refuse?apiKey=${key}`), '/api/public/quotes/[redacted]/refuse?apiKey=[REDACTED]', 'both');
});
