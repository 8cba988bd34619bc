import t from 'tap';
import { makeCursorCodec } from '../src/kernel/cursor.js';

const codec = makeCursorCodec(Buffer.alloc(32, 7));
const position = { sortValue: new Date('2026-11-01T10:00:00.123Z'), id: '0b9c8d3e-1111-4222-8333-444455556666' };

t.test('a cursor decodes to the position it encoded, in the same scope', async (t) => {
  const cursor = codec.encode('products|g1', position);
  t.same(codec.decode('products|g1', cursor), position);
});

t.test('a tampered cursor, or one from another scope, is a validation error', async (t) => {
  const cursor = codec.encode('products|g1', position);
  const flipped = cursor.slice(0, 3) + (cursor[3] === 'A' ? 'B' : 'A') + cursor.slice(4);
  for (const bad of [flipped, `${cursor}x`, 'garbage', '', `${cursor}.extra`]) {
    t.throws(() => codec.decode('products|g1', bad), { code: 'VALIDATION_FAILED' }, bad);
  }
  t.throws(() => codec.decode('products|g2', cursor), { code: 'VALIDATION_FAILED' });
});

t.test('key rotation: cursors signed with a former secret stay valid where it is still known', async (t) => {
  const [oldSecret, newSecret] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
  const before = makeCursorCodec([oldSecret]).encode('products|g1', position);
  const during = makeCursorCodec([newSecret, oldSecret]);
  t.same(during.decode('products|g1', before), position, 'an old cursor after the switch');
  t.same(makeCursorCodec([oldSecret, newSecret]).decode('products|g1', during.encode('products|g1', position)), position, 'a new cursor on an instance not switched yet');
  t.throws(() => makeCursorCodec([newSecret]).decode('products|g1', before), { code: 'VALIDATION_FAILED' }, 'not once the former key is dropped');
  t.throws(() => makeCursorCodec([]), /at least one secret/);
});
