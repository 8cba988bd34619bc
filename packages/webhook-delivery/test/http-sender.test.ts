import t from 'tap';
import { makeHttpSender } from '../src/http-sender.js';
import { sleep } from '@garage/domain/testing';
import { startReceiver } from '@garage/webhook-delivery/testing';

const sender = makeHttpSender();
const request = (url: string, timeoutMs = 2_000) => ({
  url,
  headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1' },
  body: '{"type":"lead.created"}',
  timeoutMs,
});

t.test('POSTs the body and headers as given and reports the status', async (t) => {
  const receiver = await startReceiver((_req, res) => void res.writeHead(202).end('accepted, with a body nobody reads'));
  t.teardown(receiver.close);
  t.same(await sender.send(request(`${receiver.url}/hook?token=x`)), { statusCode: 202 });
  const [received] = receiver.received;
  t.equal(received?.method, 'POST');
  t.equal(received?.path, '/hook?token=x');
  t.equal(received?.body, '{"type":"lead.created"}');
  t.equal(received?.headers['content-type'], 'application/json');
  t.equal(received?.headers['webhook-id'], 'evt_1');
  t.match(received?.headers['user-agent'], /^garage-webhooks\//);
});

t.test('does not follow redirects: the 3xx is the answer', async (t) => {
  const receiver = await startReceiver((req, res) =>
    req.path === '/moved' ? void res.writeHead(307, { location: '/elsewhere' }).end() : void res.writeHead(200).end(),
  );
  t.teardown(receiver.close);
  t.same(await sender.send(request(`${receiver.url}/moved`)), { statusCode: 307 });
  await sleep(50);
  t.same(receiver.received.map((r) => r.path), ['/moved'], 'the signed request never went to the new location');
});

t.test('a receiver slower than the timeout is an error, not a hang', async (t) => {
  const receiver = await startReceiver(async (_req, res) => {
    await sleep(1_000);
    res.writeHead(200).end();
  });
  t.teardown(receiver.close);
  const started = Date.now();
  t.same(await sender.send(request(receiver.url, 150)), { error: 'timeout after 150 ms' });
  t.ok(Date.now() - started < 900, 'gave up at the timeout');
});

t.test('network failures are errors that name the reason', async (t) => {
  const receiver = await startReceiver();
  const url = receiver.url;
  await receiver.close();
  const refused = await sender.send(request(url));
  t.match(refused, { error: /ECONNREFUSED/ });
  t.match(await sender.send(request('not a url')), { error: /URL|url/ });
});
