import helmet from 'helmet';
import t from 'tap';
import { build } from './helper.js';

/** What helmet's own middleware sets on a response, for comparison with what the app sends. */
const helmetHeaders = () => {
  const headers: Record<string, string> = {};
  helmet()({} as never, { setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)), removeHeader: () => {} } as never, () => {});
  return headers;
};

t.test("every response carries helmet's security headers, on every kind of route", async (t) => {
  const { app } = await build(t);
  const expected = helmetHeaders();
  t.ok(Object.keys(expected).length >= 10, 'helmet sets a dozen headers');
  t.match(expected['content-security-policy'], /default-src 'self'/);
  for (const [method, url] of [
    ['GET', '/health/live'],
    ['GET', '/api/public/products'],
    ['GET', '/api/public/nowhere'],
    ['POST', '/api/public/fleet/lead'],
  ] as const) {
    const res = await app.inject({ method, url });
    for (const [name, value] of Object.entries(expected)) {
      // Public routes are called from garage websites: their resources may be read cross-origin (public-cors.ts).
      const wanted = name === 'cross-origin-resource-policy' && url.includes('/fleet/') ? 'cross-origin' : value;
      t.equal(res.headers[name], wanted, `${method} ${url}: ${name}`);
    }
    t.notOk(res.headers['x-powered-by']);
  }
});
