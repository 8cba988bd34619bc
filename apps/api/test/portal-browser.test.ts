import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeUnitOfWork } from '@garage/postgres';
import { startReceiver } from '@garage/webhook-delivery/testing';
import puppeteer, { type Page } from 'puppeteer-core';
import t, { type Test } from 'tap';
import { build, FIRST_VERSION, LATEST_VERSION, LOOPBACK_WEBHOOKS } from './helper.js';

/**
 * The connector portal in a real browser (docs/connectors/portal.md): Debian's Chromium driven by puppeteer-core, every
 * page checked by axe-core (no serious or critical violation), every flow a connector developer goes through. The
 * screenshots of the guide are taken here.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/**
 * Every run takes the screenshots; `UPDATE_PORTAL_SCREENSHOTS=1` writes them over the guide's, otherwise they go to a
 * temporary folder, so that running the tests leaves the checkout as it was.
 */
const SCREENSHOTS = process.env.UPDATE_PORTAL_SCREENSHOTS === '1'
  ? fileURLToPath(new URL('../../../docs/connectors/portal/', import.meta.url))
  : `${mkdtempSync(join(tmpdir(), 'portal-screenshots-'))}/`;
if (process.env.UPDATE_PORTAL_SCREENSHOTS !== '1') t.teardown(() => rmSync(SCREENSHOTS, { recursive: true, force: true }));

const checkAccessibility = async (t: Test, page: Page, name: string) => {
  // Injected by the test, not served by the portal: the page's own CSP rightly refuses inline scripts.
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
  });
  t.same(violations, [], `${name}: no serious or critical accessibility violation`);
};

// Functions evaluated in the browser reach its globals through `globalThis`: this file is compiled without the DOM's types.
const submit = async (page: Page, selector: string) => {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
};

t.test('the portal in Chromium', async (t) => {
  const receiver = await startReceiver();
  t.teardown(receiver.close);
  const { app, admin, db } = await build(t, { env: { PORTAL_INSECURE_COOKIES: 'true', WEBHOOK_RETRY_SCHEDULE: '1h', ...LOOPBACK_WEBHOOKS } });
  await admin.createGarage({ slug: 'browser', name: 'Garage du Centre' });
  const shop = await admin.createIntegration({
    garageSlug: 'browser',
    name: 'Shop connector',
    sync: ['appointments', 'catalog'],
    webhookUrl: `${receiver.url}/hooks`,
    apiVersion: FIRST_VERSION,
  });
  await admin.createIntegration({ garageSlug: 'browser', name: 'Rival connector', sync: ['catalog'], webhookUrl: 'https://rival.example/hooks' });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  // What a connector did before opening the portal: a request that failed, and an event that was delivered (stored, as
  // every event, in the newest shape).
  await app.inject({ method: 'GET', url: '/api/public/appointments/00000000-0000-4000-8000-000000000000', headers: { 'x-api-key': shop.apiKey, 'x-request-id': 'failed-lookup-1' } });
  await app.inject({ method: 'GET', url: '/api/public/products?limit=5', headers: { 'x-api-key': shop.apiKey, 'x-request-id': 'products-1' } });
  await app.requestRecorder!.flush();
  await makeUnitOfWork(db.handle.db).run((tx) =>
    tx.outbox.enqueue({ garageId: shop.integration.garageId, type: 'lead.created', data: { id: 'lead-1', vehicle: { id: 'vehicle-1', reference: 'V-1', make: 'Peugeot', model: '208', year: 2021 }, name: 'Jeanne' } }),
  );
  await receiver.waitFor(1);

  const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  // Lets the test inject axe-core; the portal's own CSP is checked on its responses (portal.test.ts).
  await page.setBypassCSP(true);
  await page.setViewport({ width: 1200, height: 900 });
  const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
  const text = () => page.evaluate(() => (globalThis as any).document.body.innerText as string);

  const link = await admin.createPortalLink(shop.integration.id);
  const url = `${base}/portal/login#token=${link.token}`;

  t.test('the link signs in, and leaves no secret in the address bar', async (t) => {
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (globalThis as any).location.pathname === '/portal' && (globalThis as any).document.querySelector('h1')?.textContent === 'Overview');
    t.equal(new URL(page.url()).hash, '');
    const body = await text();
    t.match(body, 'Shop connector');
    t.match(body, 'Garage du Centre');
    t.match(body, FIRST_VERSION);
    t.notMatch(body, 'Rival connector');
    t.match(body, shop.apiKey.slice(-4), 'the key shown by its last 4 characters');
    t.notMatch(body, shop.apiKey);
    await checkAccessibility(t, page, 'overview');
    await shot('overview');
  });

  t.test('requests: filtered, and one opened with the error body received', async (t) => {
    await page.goto(`${base}/portal/requests`);
    await checkAccessibility(t, page, 'requests');
    await page.type('#status', '4xx');
    await submit(page, '.filters button');
    const body = await text();
    t.match(body, 'failed-lookup-1');
    t.notMatch(body, 'products-1', 'the filter keeps the 4xx only');
    await shot('requests');
    await submit(page, 'a[href*="failed-lookup-1"]');
    const detail = await text();
    t.match(detail, '"code": "NOT_FOUND"');
    t.match(detail, '/api/public/appointments/:appointmentId');
    await checkAccessibility(t, page, 'request detail');
    await shot('request');
  });

  t.test('webhooks: a refused URL shows the rule, a good one is saved, a test is sent, the secret rotated, a delivery retried', async (t) => {
    await page.goto(`${base}/portal/webhooks`);
    await checkAccessibility(t, page, 'webhooks');
    const setUrl = async (value: string) => {
      await page.$eval('#url', (input, v) => ((input as unknown as { value: string }).value = v), value);
      await submit(page, 'form[action="/portal/webhooks/url"] button');
    };
    await setUrl('http://169.254.169.254/latest/meta-data');
    t.match(await text(), /not allowed|refused|internal|link-local/i, 'the destination rule, plainly');
    t.equal((await app.portal.findIntegration(shop.integration.id))!.webhookUrl, `${receiver.url}/hooks`, 'unchanged');
    await setUrl(`${receiver.url}/hooks-v2`);
    t.equal((await app.portal.findIntegration(shop.integration.id))!.webhookUrl, `${receiver.url}/hooks-v2`);

    await submit(page, 'form[action="/portal/webhooks/test"] button');
    t.match(await page.$eval('#test-result', (e) => e.textContent), /Delivered\s*yes/);

    await submit(page, 'form[action="/portal/webhooks/rotate"] button');
    const secret = await page.$eval('#new-secret', (e) => e.textContent);
    t.match(secret, /^whsec_/, 'the new secret, shown once');
    await page.goto(`${base}/portal/webhooks`);
    t.notMatch(await text(), secret!, 'and never again');

    t.match(await text(), 'lead.created');
    await submit(page, 'form[action$="/retry"] button');
    t.match(await text(), 'One more attempt was queued');
    await checkAccessibility(t, page, 'webhooks after actions');
    await shot('webhooks');
  });

  t.test('events: the feed rendered at the pin', async (t) => {
    await page.goto(`${base}/portal/events`);
    const body = await text();
    t.match(body, 'lead.created');
    t.match(body, `"apiVersion": "${FIRST_VERSION}"`);
    t.match(body, '"vehicleReference": "V-1"', 'the first version\'s shape of lead.created');
    await checkAccessibility(t, page, 'events');
    await shot('events');
  });

  t.test('versions: upgrade the pin, then move it back', async (t) => {
    await page.goto(`${base}/portal/versions`);
    await checkAccessibility(t, page, 'versions');
    await shot('versions');
    await submit(page, `form:has(input[value="${LATEST_VERSION}"]) button`);
    t.equal(await page.$eval('#pin', (e) => e.textContent), LATEST_VERSION);
    t.equal((await app.portal.findIntegration(shop.integration.id))!.apiVersion, LATEST_VERSION);
    await page.goto(`${base}/portal/events`);
    t.match(await text(), '"vehicle": {', 'events now rendered at the new pin');
    await page.goto(`${base}/portal/versions`);
    await submit(page, '.revert button');
    t.equal(await page.$eval('#pin', (e) => e.textContent), FIRST_VERSION);
  });

  t.test('the live / test switch shows the sandbox', async (t) => {
    await page.goto(`${base}/portal`);
    await submit(page, '.modes a.test');
    t.match(page.url(), /mode=test/);
    t.match(await text(), 'Test (sandbox)');
    await checkAccessibility(t, page, 'overview in test mode');
  });

  t.test('the overview lists every portal action; `integration audit` prints the same', async (t) => {
    await page.goto(`${base}/portal`);
    const body = await text();
    for (const action of ['session.open', 'webhook.url.update', 'webhook.test', 'webhook.secret.rotate', 'webhook.delivery.retry', 'version.pin']) {
      t.match(body, action);
    }
    const audit = await admin.listPortalActions(shop.integration.id);
    t.equal(audit.filter((a) => a.action === 'version.pin').length, 2);
  });

  t.test('a form with a forged CSRF token changes nothing', async (t) => {
    await page.goto(`${base}/portal/webhooks`);
    await page.$eval('form[action="/portal/webhooks/url"] input[name="_csrf"]', (input) => ((input as unknown as { value: string }).value = 'forged'));
    await page.$eval('#url', (input) => ((input as unknown as { value: string }).value = 'https://evil.example/'));
    await submit(page, 'form[action="/portal/webhooks/url"] button');
    t.match(await text(), 'nothing was changed');
    t.equal((await app.portal.findIntegration(shop.integration.id))!.webhookUrl, `${receiver.url}/hooks-v2`);
  });

  t.test('a replayed link is refused, in another browser too', async (t) => {
    const other = await browser.createBrowserContext();
    const replay = await other.newPage();
    await replay.setBypassCSP(true);
    await replay.goto(url, { waitUntil: 'domcontentloaded' });
    await replay.waitForFunction(() => (globalThis as any).document.querySelector('h1')?.textContent === 'Link refused');
    t.match(await replay.evaluate(() => (globalThis as any).document.body.innerText as string), 'already used');
    await checkAccessibility(t, replay, 'refused link');
    await replay.screenshot({ path: `${SCREENSHOTS}link-refused.png` });
    await other.close();
  });

  t.test('revoking the integration ends the session at once', async (t) => {
    await admin.revokeIntegration(shop.integration.id);
    await page.goto(`${base}/portal`);
    t.match(await text(), 'not signed in');
  });
});
