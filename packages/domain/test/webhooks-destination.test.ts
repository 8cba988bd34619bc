import t from 'tap';
import { makeDestinationPolicy, webhookUrlProblem } from '../src/index.js';

// docs/operators/security.md "Webhook destinations": IPv6 is public only inside 2000::/3 and outside its special
// ranges; an address embedding an IPv4 address is judged as that address.
t.test('IPv6 destinations outside the global unicast space, or embedding an internal IPv4 address, are refused', async (t) => {
  const strict = makeDestinationPolicy();
  const refused = [
    '::7f00:1', // IPv4-compatible 127.0.0.1
    '::a9fe:a9fe', // IPv4-compatible 169.254.169.254
    '::a00:1', // IPv4-compatible 10.0.0.1
    '::', // unspecified
    '::1',
    '64:ff9b::7f00:1', // NAT64 to 127.0.0.1
    '64:ff9b::a9fe:a9fe', // NAT64 to the metadata service
    '64:ff9b:1::a00:1', // local-use NAT64
    '::ffff:0:7f00:1', // IPv4-translated
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2001::1', // Teredo
    '2001:db8::1', // documentation
    '3fff::1', // documentation
    '100::1', // discard
    '5f00::1', // segment routing
    '4000::1', // outside 2000::/3
    'fec0::1', // site-local
    'fd12::1',
    'fe80::1',
    'ff02::1',
  ];
  for (const address of refused) t.notOk(strict.allowsAddress(address), address);
  for (const address of ['2606:4700:4700::1111', '2a00:1450:4007:80b::200e', '64:ff9b::808:808', '93.184.216.34', '::ffff:93.184.216.34']) {
    t.ok(strict.allowsAddress(address), `${address}: public`);
  }
});

t.test('WEBHOOK_ALLOWED_NETWORKS opens an embedded internal address, never link-local or metadata', async (t) => {
  const everything = makeDestinationPolicy(['0.0.0.0/0', '::/0']);
  for (const address of ['::a9fe:a9fe', '64:ff9b::a9fe:a9fe', '::ffff:0:a9fe:a9fe', '::6464:64c8', 'fe80::1', 'fd00:ec2::254']) {
    t.notOk(everything.allowsAddress(address), `${address}: never`);
  }
  const loopback = makeDestinationPolicy(['127.0.0.0/8', '::1/128']);
  for (const address of ['::1', '::7f00:1', '64:ff9b::7f00:1']) t.ok(loopback.allowsAddress(address), `${address}: loopback allowed`);
  t.notOk(loopback.allowsAddress('::a00:1'), 'not another range');
});

t.test('a configured URL naming such an address is refused', async (t) => {
  const strict = makeDestinationPolicy();
  for (const url of ['http://[::7f00:1]/hooks', 'https://[::a9fe:a9fe]/latest/meta-data/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[4000::1]/']) {
    t.match(webhookUrlProblem(url, strict), /internal address/, url);
  }
  t.equal(webhookUrlProblem('https://[2606:4700:4700::1111]/hooks', strict), null);
});
