import { setTimeout as sleep } from 'node:timers/promises';
import { uuidV7Time } from '@garage/domain';
import t from 'tap';
import { newRequestId } from '../src/http/request-ids.js';
import { UUID_V7 } from './helper.js';

t.test('a made request id is a UUIDv7', async (t) => {
  for (let i = 0; i < 600; i += 1) t.match(newRequestId(), UUID_V7);
});

t.test('ids made later sort after ids made earlier: the request log indexes them at its end', async (t) => {
  const earlier = Array.from({ length: 300 }, newRequestId);
  await sleep(3);
  const later = Array.from({ length: 300 }, newRequestId);
  const lastEarlier = [...earlier].sort().at(-1)!;
  t.ok(later.every((id) => id > lastEarlier), 'every later id sorts after every earlier one');
  t.ok(Date.now() - uuidV7Time(later[0]!)! < 60_000, 'the first 48 bits are the time in milliseconds');
});

t.test('ids are unique, across the refills of the random pool', async (t) => {
  const ids = Array.from({ length: 20_000 }, newRequestId);
  t.equal(new Set(ids).size, ids.length);
  t.equal(new Set(ids.map((id) => id.slice(24))).size, ids.length, 'their random tails differ too: each id draws its own bytes');
});
