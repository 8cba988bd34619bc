import t from 'tap';
import { build, LOOPBACK_WEBHOOKS } from './helper.js';
import { csrfOf, portalClient } from './portal-support.js';

/** docs/reference/contract.md §10: portal access and its security, over HTTP (the pages in a browser: portal-browser.test.ts). */
t.test('portal access', async (t) => {
  const { app, admin } = await build(t, { env: { PORTAL_INSECURE_COOKIES: 'false', ...LOOPBACK_WEBHOOKS } });
  await admin.createGarage({ slug: 'portal', name: 'Portal Garage' });
  const shop = await admin.createIntegration({ garageSlug: 'portal', name: 'Shop connector', sync: ['catalog'], webhookUrl: null });
  const rival = await admin.createIntegration({ garageSlug: 'portal', name: 'Rival connector', sync: ['catalog'], webhookUrl: 'https://rival.example/hooks' });
  await app.ready();

  t.test('a link opens one session: HttpOnly, SameSite=Strict, Path=/portal, Secure; a replay opens nothing', async (t) => {
    const { token } = await admin.createPortalLink(shop.integration.id);
    const browser = portalClient(app);
    const opened = await browser.login(token);
    t.equal(opened.statusCode, 303);
    t.equal(opened.headers.location, '/portal');
    const cookie = opened.cookies.find((c) => c.name === 'garage_portal')!;
    t.match(cookie, { httpOnly: true, sameSite: 'Strict', path: '/portal', secure: true });
    const overview = await browser.get('/portal');
    t.equal(overview.statusCode, 200);
    t.match(overview.body, 'Shop connector');
    t.match(overview.body, 'Portal Garage');
    t.notMatch(overview.body, 'Rival connector');
    t.match(overview.body, `••••••••${shop.apiKey.slice(-4)}`, 'the key by its last 4 characters');
    t.notMatch(overview.body, shop.apiKey.slice(0, 8), 'and nothing more of it');
    const testSide = (await browser.get('/portal?mode=test')).body;
    t.match(testSide, `••••••••${shop.sandbox.testApiKey.slice(-4)}`, 'the test key in test mode');
    t.match(overview.headers['content-security-policy'], /frame-ancestors 'none'/);
    t.match(overview.headers['content-security-policy'], /script-src 'self'/);
    t.notMatch(overview.headers['content-security-policy'], /unsafe-inline/);
    t.equal(overview.headers['cache-control'], 'no-store');

    const replay = await portalClient(app).login(token);
    t.equal(replay.statusCode, 403);
    t.match(replay.body, 'already used');
    t.notOk(replay.cookies.some((c) => c.name === 'garage_portal'), 'no session cookie');
    const unknown = await portalClient(app).login('not-a-link');
    t.equal(unknown.statusCode, 403);
    t.match(unknown.body, 'not valid');
  });

  t.test('an expired link opens nothing', async (t) => {
    const { token } = await admin.createPortalLink(shop.integration.id, { ttlMinutes: 1 });
    await app.storage.handle.db.updateTable('portal_links').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    const res = await portalClient(app).login(token);
    t.equal(res.statusCode, 403);
    t.match(res.body, 'expired');
  });

  t.test('without a session every page says how to sign in', async (t) => {
    for (const page of ['/portal', '/portal/requests', '/portal/webhooks', '/portal/events', '/portal/versions']) {
      const res = await app.inject({ method: 'GET', url: page });
      t.equal(res.statusCode, 401, page);
      t.match(res.body, 'not signed in', page);
    }
  });

  t.test('a form without its CSRF token changes nothing', async (t) => {
    const { token } = await admin.createPortalLink(shop.integration.id);
    const browser = portalClient(app);
    await browser.login(token);
    const refused = await browser.post('/portal/webhooks/url', { url: 'https://evil.example/hooks' });
    t.equal(refused.statusCode, 403);
    const forged = await browser.post('/portal/webhooks/url', { url: 'https://evil.example/hooks', _csrf: 'forged' });
    t.equal(forged.statusCode, 403);
    t.equal((await app.portal.findIntegration(shop.integration.id))!.webhookUrl, null, 'the URL is unchanged');
    const page = await browser.get('/portal/webhooks');
    const saved = await browser.post('/portal/webhooks/url', { url: 'https://shop.example/hooks', _csrf: csrfOf(page.body) });
    t.equal(saved.statusCode, 303);
    t.equal((await app.portal.findIntegration(shop.integration.id))!.webhookUrl, 'https://shop.example/hooks');
    const refusedUrl = await browser.post('/portal/webhooks/url', { url: 'http://169.254.169.254/latest', _csrf: csrfOf(page.body) });
    t.equal(refusedUrl.statusCode, 400);
    t.match(refusedUrl.body, /aria-invalid="true"/);
    t.match(refusedUrl.body, /not allowed|refused|internal/i, 'the rule\'s message');
    t.equal((await app.portal.findIntegration(shop.integration.id))!.webhookUrl, 'https://shop.example/hooks', 'unchanged');
    const audit = await admin.listPortalActions(shop.integration.id);
    t.ok(audit.some((a) => a.action === 'webhook.url.update' && a.detail.url === 'https://shop.example/hooks'));
  });

  t.test('webhook tests from the portal obey the API\'s limit: 10 a minute', async (t) => {
    const limited = await admin.createIntegration({ garageSlug: 'portal', name: 'Limited', sync: [], webhookUrl: null });
    const browser = portalClient(app);
    await browser.login((await admin.createPortalLink(limited.integration.id)).token);
    const csrf = csrfOf((await browser.get('/portal/webhooks')).body);
    for (let i = 0; i < 10; i++) t.equal((await browser.post('/portal/webhooks/test', { _csrf: csrf })).statusCode, 409, `test ${i + 1}: no URL`);
    const refused = await browser.post('/portal/webhooks/test', { _csrf: csrf });
    t.equal(refused.statusCode, 429);
    t.match(refused.body, 'At most 10 a minute');
  });

  t.test('one session never shows another integration\'s data', async (t) => {
    const { token } = await admin.createPortalLink(shop.integration.id);
    const browser = portalClient(app);
    await browser.login(token);
    for (const page of ['/portal', '/portal/webhooks', '/portal/requests', '/portal/versions', '/portal/events']) {
      const res = await browser.get(page);
      t.notMatch(res.body, 'rival.example', page);
      t.notMatch(res.body, rival.integration.id, page);
    }
  });

  t.test('revoking the integration ends its sessions at once; logout ends one', async (t) => {
    const other = await admin.createIntegration({ garageSlug: 'portal', name: 'Short-lived', sync: [], webhookUrl: null });
    const browser = portalClient(app);
    await browser.login((await admin.createPortalLink(other.integration.id)).token);
    t.equal((await browser.get('/portal')).statusCode, 200);
    await admin.revokeIntegration(other.integration.id);
    t.equal((await browser.get('/portal')).statusCode, 401, 'the next page is refused');

    const leaving = portalClient(app);
    await leaving.login((await admin.createPortalLink(shop.integration.id)).token);
    const before = leaving.jar.cookies.get('garage_portal');
    const page = await leaving.get('/portal');
    t.equal((await leaving.post('/portal/logout', { _csrf: csrfOf(page.body) })).statusCode, 200);
    leaving.jar.cookies.set('garage_portal', before!);
    t.equal((await leaving.get('/portal')).statusCode, 401, 'the old cookie opens nothing');
  });

  t.test('the portal, the guides and the reference share one stylesheet and the product\'s name', async (t) => {
    const css = await app.inject({ method: 'GET', url: '/assets/garage.css' });
    t.equal(css.statusCode, 200);
    t.match(css.headers['content-type'], /text\/css/);
    const login = await app.inject({ method: 'GET', url: '/portal/login' });
    t.match(login.body, '<link rel="stylesheet" href="/assets/garage.css">');
    const reference = await app.inject({ method: 'GET', url: '/api/public/docs' });
    t.match(reference.body, 'theme/garage.css', 'the reference page loads the same stylesheet');
    const theme = await app.inject({ method: 'GET', url: '/api/public/docs/static/theme/garage.css' });
    t.equal(theme.body, css.body, 'the very same stylesheet');
    const initializer = await app.inject({ method: 'GET', url: '/api/public/docs/static/swagger-initializer.js' });
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(initializer.body)?.[1] ?? '';
    t.match(Buffer.from(logo, 'base64').toString('utf8'), 'Garage', 'the product\'s wordmark in place of the framework\'s logo');
  });
});
