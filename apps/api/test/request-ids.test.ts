import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { newRequestId } from '../src/http/request-ids.js';

/** Version 7 in the version nibble, RFC 9562's variant (10xx) in the next group. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('a made request id is a UUIDv7', async (t) => {
  for (let i = 0; i < 600; i += 1) t.match(newRequestId(), UUID_V7);
});

t.test('ids made later sort after ids made earlier: the request log indexes them at its end', async (t) => {
  const earlier = Array.from({ length: 300 }, newRequestId);
  await sleep(3);
  const later = Array.from({ length: 300 }, newRequestId);
  const lastEarlier = [...earlier].sort().at(-1)!;
  t.ok(later.every((id) => id > lastEarlier), 'every later id sorts after every earlier one');
  t.ok(Date.now() - parseInt(later[0]!.slice(0, 8) + later[0]!.slice(9, 13), 16) < 60_000, 'the first 48 bits are the time in milliseconds');
});

t.test('ids are unique, across the refills of the random pool', async (t) => {
  const ids = Array.from({ length: 20_000 }, newRequestId);
  t.equal(new Set(ids).size, ids.length);
  t.equal(new Set(ids.map((id) => id.slice(24))).size, ids.length, 'their random tails differ too: each id draws its own bytes');
});
