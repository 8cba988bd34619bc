import t from 'tap';
import { makeCursorCodec } from '../src/kernel/cursor.js';
import { fetchRenderedPage, type RenderedRows } from '../src/kernel/page.js';
import type { KeysetPosition } from '../src/kernel/pagination.js';

const codec = makeCursorCodec(Buffer.alloc(32, 7));
const positionOf = (i: number): KeysetPosition => ({
  sortValue: new Date(Date.UTC(2026, 10, 1, 0, 0, i)),
  id: `0b9c8d3e-1111-4222-8333-${String(i).padStart(12, '0')}`,
});

/** A store of `count` rendered rows, recording what each read asked for. */
const store = (count: number) => {
  const asked: { after: KeysetPosition | null; limit: number }[] = [];
  const read = async (after: KeysetPosition | null, limit: number): Promise<RenderedRows> => {
    asked.push({ after, limit });
    const from = after === null ? 0 : Number(after.id.slice(-12)) + 1;
    const rows = Array.from({ length: Math.max(0, Math.min(limit, count - from)) }, (_, i) => from + i);
    return { items: rows.map((i) => `{"n":${i}}`), positionAt: (index) => positionOf(rows[index]!) };
  };
  return { asked, read };
};

t.test('a rendered page reads one row more than it keeps, and its cursor is the position of the last row kept', async (t) => {
  const { asked, read } = store(5);
  const first = await fetchRenderedPage(codec, 'scope', { limit: 2, cursor: null }, read);
  t.same(first.items, ['{"n":0}', '{"n":1}']);
  t.same(asked, [{ after: null, limit: 3 }]);
  t.same(codec.decode('scope', first.nextCursor!), positionOf(1));

  const second = await fetchRenderedPage(codec, 'scope', { limit: 2, cursor: first.nextCursor }, read);
  t.same(second.items, ['{"n":2}', '{"n":3}']);
  t.same(asked[1], { after: positionOf(1), limit: 3 });

  const last = await fetchRenderedPage(codec, 'scope', { limit: 2, cursor: second.nextCursor }, read);
  t.same(last, { items: ['{"n":4}'], nextCursor: null }, 'the last page has no next cursor');
  const exact = await fetchRenderedPage(codec, 'scope', { limit: 5, cursor: null }, store(5).read);
  t.equal(exact.nextCursor, null, 'a page that holds every remaining row is the last');
});

t.test('a cursor of another scope is refused before any read', async (t) => {
  const { asked, read } = store(5);
  const cursor = codec.encode('other', positionOf(1));
  await t.rejects(fetchRenderedPage(codec, 'scope', { limit: 2, cursor }, read), { code: 'VALIDATION_FAILED' });
  t.same(asked, []);
});
