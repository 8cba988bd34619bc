import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { startDemoApi } from './support/demo-api.js';

/**
 * The docs page as a person sees it: the API started with the demo data, its pages loaded in headless Chromium
 * (`.ci/system-deps` installs it), and what the browser rendered (scripts run, the OpenAPI document fetched) read back
 * from its DOM. Fails, never skips, without Chromium.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? 'chromium';

const renderedDom = async (url: string, profile: string): Promise<string> => {
  const { stdout } = await promisify(execFile)(
    CHROMIUM,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', `--user-data-dir=${profile}`,
      '--virtual-time-budget=15000', '--dump-dom', url],
    { maxBuffer: 32 * 1024 * 1024, timeout: 120_000 },
  );
  return stdout;
};

t.test('the guides are rendered beside the API reference', async (t) => {
  const api = await startDemoApi(t);
  const profile = await mkdtemp(join(tmpdir(), 'docs-chromium-'));
  t.teardown(() => rm(profile, { recursive: true, force: true }));

  const reference = await renderedDom(`${api.url}/api/public/docs`, profile);
  t.match(reference, /class="swagger-ui/, 'the interactive reference is rendered');
  t.match(reference, /listProducts|\/api\/public\/products/, 'with the operations of the OpenAPI document');
  t.match(reference, /href="\/api\/public\/docs\/connectors\/quick-start"[^>]*>Quick start</, 'and links to the guides');

  const quickStart = await renderedDom(`${api.url}/api/public/docs/connectors/quick-start`, profile);
  t.match(quickStart, /<h1 id="quick-start">Quick start<\/h1>/, 'the quick start is a page');
  t.match(quickStart, /From a fresh clone to a first booking/, 'with its text');
  t.match(quickStart, /<pre><code class="language-sh">/, 'its examples');
  t.match(quickStart, /href="\/api\/public\/docs\/connectors\/webhooks"[^>]*>Webhooks, end to end</, 'a menu of every guide');
  t.match(quickStart, /href="\.\.\/reference\/contract"/, 'and links to the reference, as served');

  const contract = await renderedDom(`${api.url}/api/public/docs/reference/contract#41-booking-rules-appointments`, profile);
  t.match(contract, /<h3 id="41-booking-rules-appointments">4\.1 Booking rules \(appointments\)<\/h3>/, 'the contract keeps its section anchors');

  const missing = await fetch(`${api.url}/api/public/docs/connectors/no-such-guide`);
  t.equal(missing.status, 404, 'an unknown page is a 404');
  t.match(await missing.json(), { code: 'NOT_FOUND' });
  const page = await fetch(`${api.url}/api/public/docs/connectors/booking`);
  t.match(page.headers.get('content-type'), /^text\/html/);
  t.match(page.headers.get('content-security-policy'), /default-src 'self'/, "the docs page's security headers");

  const portalUrl = `${api.url}/api/public/docs/connectors/portal`;
  const portal = await (await fetch(portalUrl)).text();
  const sources = [...portal.matchAll(/<img src="([^"]+)"/g)].map((match) => match[1]!);
  t.ok(sources.length >= 7, 'the portal guide shows a screenshot of each page');
  for (const source of sources) {
    const image = await fetch(new URL(source, portalUrl));
    t.equal(image.status, 200, `${source} is served beside the page`);
    t.equal(image.headers.get('content-type'), 'image/png');
    t.same([...new Uint8Array(await image.arrayBuffer()).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'as a PNG');
  }
});
