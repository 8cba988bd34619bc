import { createServer } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { makeHttpSender, type Resolver } from '../src/http-sender.js';
import { sleep } from '@garage/domain/testing';
import { startReceiver } from '@garage/webhook-delivery/testing';

const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const sender = makeHttpSender({ allowedNetworks: LOOPBACK });
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
  // A followed redirect would have been sent, and received, before the send resolved.
  t.same(receiver.received.map((r) => r.path), ['/moved'], 'the signed request never went to the new location');
});

t.test('a receiver slower than the timeout is an error, not a hang', async (t) => {
  const receiver = await startReceiver(async (_req, res) => {
    await sleep(1_000);
    res.writeHead(200).end();
  });
  t.teardown(receiver.close);
  const started = Date.now();
  t.same(await sender.send(request(receiver.url, 150)), { error: 'timeout' });
  t.ok(Date.now() - started < 900, 'gave up at the timeout');
});

t.test('network failures are reported in coarse words that name no address', async (t) => {
  const receiver = await startReceiver();
  const url = receiver.url;
  await receiver.close();
  t.same(await sender.send(request(url)), { error: 'connection refused' });
  t.same(await sender.send(request('not a url')), { error: 'destination not allowed' });
  const unresolvable = makeHttpSender({ resolve: async () => Promise.reject(Object.assign(new Error('queryA ENOTFOUND x'), { code: 'ENOTFOUND' })) });
  t.same(await unresolvable.send(request('http://receiver.invalid/hook')), { error: 'DNS error' });
});

/** A TCP listener on loopback that counts the connections made to it, whatever they carry. */
const startListener = async () => {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** Maps every name to one address, as a DNS record would; what it maps to is never connected to unless allowed. */
const resolvingTo = (address: string): Resolver => async () => [{ address, family: address.includes(':') ? 6 : 4 }];

t.test('internal destinations are refused before any connection unless WEBHOOK_ALLOWED_NETWORKS allows them', async (t) => {
  const listener = await startListener();
  t.teardown(listener.close);
  const strict = makeHttpSender();
  for (const url of [`http://127.0.0.1:${listener.port}/hook`, `http://[::1]:${listener.port}/`, `http://[::ffff:127.0.0.1]:${listener.port}/`]) {
    t.same(await strict.send(request(url)), { error: 'destination not allowed' }, url);
  }
  // Addresses no test may ever reach: refused from the URL alone, whatever the allowed list says for link-local.
  const allowingAll = makeHttpSender({ allowedNetworks: ['0.0.0.0/0', '::/0'] });
  for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/', 'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://[::a9fe:a9fe]/', 'http://[64:ff9b::a9fe:a9fe]/']) {
    t.same(await allowingAll.send(request(url)), { error: 'destination not allowed' }, `${url}: link-local and metadata, never`);
  }
  for (const url of ['http://10.1.2.3/', 'http://192.168.0.1/', 'http://172.16.0.1/', 'http://100.64.0.1/', 'http://[fd12::1]/', 'http://224.0.0.1/', 'http://0.0.0.0/']) {
    t.same(await strict.send(request(url)), { error: 'destination not allowed' }, url);
  }
  t.same(await strict.send(request(`http://user:pass@example.com/`)), { error: 'destination not allowed' }, 'credentials in the URL');
  t.equal(listener.connections(), 0, 'the loopback listener saw nothing');
  t.same(await makeHttpSender({ allowedNetworks: ['127.0.0.0/8'] }).send(request(`http://127.0.0.1:${listener.port}/`)), { error: 'connection refused' });
  t.equal(listener.connections(), 1, 'allowed: the connection is made');
});

t.test('a name is judged on the addresses it resolves to, in the lookup hook, before connecting', async (t) => {
  const listener = await startListener();
  t.teardown(listener.close);
  const url = `http://receiver.example:${listener.port}/hook`;
  t.same(await makeHttpSender({ resolve: resolvingTo('127.0.0.1') }).send(request(url)), { error: 'destination not allowed' }, 'resolves to loopback');
  for (const address of ['169.254.169.254', '10.0.0.7', 'fd00::7', '::7f00:1', '::a9fe:a9fe', '64:ff9b::7f00:1', '4000::1']) {
    const sender = makeHttpSender({ resolve: resolvingTo(address), allowedNetworks: address === '169.254.169.254' ? ['169.254.0.0/16'] : [] });
    t.same(await sender.send(request(url)), { error: 'destination not allowed' }, `resolves to ${address}`);
  }
  // Both on loopback, so that even a wrong sender keeps its connection on this machine.
  const mixed: Resolver = async () => [
    { address: '127.0.0.1', family: 4 },
    { address: '127.0.0.2', family: 4 },
  ];
  t.same(
    await makeHttpSender({ resolve: mixed, allowedNetworks: ['127.0.0.1/32'] }).send(request(url)),
    { error: 'destination not allowed' },
    'one refused address among the answers is enough',
  );
  t.equal(listener.connections(), 0, 'nothing reached the listener');
  t.same(await makeHttpSender({ resolve: resolvingTo('127.0.0.1'), allowedNetworks: LOOPBACK }).send(request(url)), { error: 'connection refused' });
  t.equal(listener.connections(), 1, 'allowed: the hook passes the address on and the connection is made');
});

t.test('every new connection resolves again: a name rebound to an internal address is refused', async (t) => {
  const receiver = await startReceiver((_req, res) => void res.writeHead(204).end());
  t.teardown(receiver.close);
  const { port } = new URL(receiver.url);
  let answer = '127.0.0.1';
  const rebinding: Resolver = async () => [{ address: answer, family: 4 }];
  // Loopback stands in for a public address here: the first answer is allowed, the second is not.
  const sender = makeHttpSender({ resolve: rebinding, allowedNetworks: ['127.0.0.1/32'] });
  const url = `http://rebinding.example:${port}/hook`;
  t.same(await sender.send({ ...request(url), headers: { ...request(url).headers, connection: 'close' } }), { statusCode: 204 });
  answer = '127.0.0.2';
  t.same(await sender.send({ ...request(url), headers: { ...request(url).headers, connection: 'close' } }), { error: 'destination not allowed' });
  t.equal(receiver.received.length, 1);
});

t.test('a redirect to an internal address is not followed', async (t) => {
  const target = await startListener();
  t.teardown(target.close);
  const receiver = await startReceiver((_req, res) => void res.writeHead(302, { location: `http://169.254.169.254/` }).end());
  t.teardown(receiver.close);
  const loopbackRedirect = await startReceiver((_req, res) => void res.writeHead(307, { location: `http://127.0.0.1:${target.port}/` }).end());
  t.teardown(loopbackRedirect.close);
  const { port } = new URL(loopbackRedirect.url);
  // The receiver itself is reached through a name that resolves to loopback, which this sender allows only for it.
  const sender = makeHttpSender({ resolve: resolvingTo('127.0.0.1'), allowedNetworks: ['127.0.0.1/32'] });
  t.same(await sender.send(request(`http://receiver.example:${port}/`)), { statusCode: 307 });
  t.same(await makeHttpSender({ allowedNetworks: LOOPBACK }).send(request(receiver.url)), { statusCode: 302 });
  // A followed redirect would have connected before the send resolved.
  t.equal(target.connections(), 0, 'the location was never connected to');
});
