import helmet from 'helmet';
import t from 'tap';
import { build } from './helper.js';

/** What helmet's own middleware sets on a response with `options`, for comparison with what the app sends. */
const helmetHeaders = (options?: Parameters<typeof helmet>[0]) => {
  const headers: Record<string, string> = {};
  helmet(options)({} as never, { setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)), removeHeader: () => {} } as never, () => {});
  return headers;
};

/** The headers of a JSON API, which no browser renders: written out here, so that a change to them is deliberate. */
const API_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** helmet's headers that concern documents only, which the API's JSON does without. */
const PAGE_ONLY = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];

t.test("every API response carries a JSON API's security headers, on every kind of route, and no page's", async (t) => {
  const { app } = await build(t);
  for (const [method, url] of [
    ['GET', '/health/live'],
    ['GET', '/api/public/products'],
    ['GET', '/api/public/nowhere'],
    ['POST', '/api/public/fleet/lead'],
  ] as const) {
    const res = await app.inject({ method, url });
    for (const [name, value] of Object.entries(API_HEADERS)) {
      // Public routes are called from garage websites: their resources may be read cross-origin (public-cors.ts).
      const wanted = name === 'cross-origin-resource-policy' && url.includes('/fleet/') ? 'cross-origin' : value;
      t.equal(res.headers[name], wanted, `${method} ${url}: ${name}`);
    }
    for (const name of PAGE_ONLY) t.notOk(res.headers[name], `${method} ${url}: no ${name}`);
    t.notOk(res.headers['x-powered-by']);
  }
});

t.test("the documentation page, a page, carries helmet's defaults", async (t) => {
  const { app } = await build(t);
  const res = await app.inject({ method: 'GET', url: '/api/public/docs/' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['x-request-id'], /^[0-9a-f-]{36}$/, 'a request id, like every response');
  const expected = helmetHeaders();
  t.ok(Object.keys(expected).length >= 10, 'helmet sets a dozen headers');
  for (const [name, value] of Object.entries(expected)) {
    // swagger-ui writes the CSP its page needs (staticCSP), in place of helmet's default.
    if (name === 'content-security-policy') t.match(res.headers[name], /default-src 'self'/);
    else t.equal(res.headers[name], value, `docs: ${name}`);
  }
});
