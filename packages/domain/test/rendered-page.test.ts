import t from 'tap';
import { makeCursorCodec } from '../src/kernel/cursor.js';
import { fetchRenderedPage, type Rendered } from '../src/kernel/page.js';
import type { KeysetPosition } from '../src/kernel/pagination.js';

const codec = makeCursorCodec(Buffer.alloc(32, 7));
const positionOf = (i: number): KeysetPosition => ({
  sortValue: new Date(Date.UTC(2026, 10, 1, 0, 0, i, 100 + i)),
  id: `0b9c8d3e-1111-4222-8333-${String(i).padStart(12, '0')}`,
});

interface Row {
  id: string;
  n: number;
  updatedAt: Date;
}
const itemOf = (i: number) => JSON.stringify({ id: positionOf(i).id, n: i, updatedAt: positionOf(i).sortValue });
const position = (row: Rendered<Row>): KeysetPosition => ({ sortValue: new Date(row.updatedAt), id: row.id });

/** A store of `count` rendered rows, recording what each read asked for. */
const store = (count: number) => {
  const asked: { after: KeysetPosition | null; limit: number }[] = [];
  const read = async (after: KeysetPosition | null, limit: number): Promise<string[]> => {
    asked.push({ after, limit });
    const from = after === null ? 0 : Number(after.id.slice(-12)) + 1;
    return Array.from({ length: Math.max(0, Math.min(limit, count - from)) }, (_, i) => itemOf(from + i));
  };
  return { asked, read };
};

t.test('a rendered page reads one row more than it keeps, and its cursor is the position the last item kept holds', async (t) => {
  const { asked, read } = store(5);
  const first = await fetchRenderedPage(codec, 'scope', { limit: 2, cursor: null }, position, read);
  t.same(first.items, [itemOf(0), itemOf(1)]);
  t.same(asked, [{ after: null, limit: 3 }]);
  t.same(codec.decode('scope', first.nextCursor!), positionOf(1));

  const second = await fetchRenderedPage(codec, 'scope', { limit: 2, cursor: first.nextCursor }, position, read);
  t.same(second.items, [itemOf(2), itemOf(3)]);
  t.same(asked[1], { after: positionOf(1), limit: 3 });

  const last = await fetchRenderedPage(codec, 'scope', { limit: 2, cursor: second.nextCursor }, position, read);
  t.same(last, { items: [itemOf(4)], nextCursor: null }, 'the last page has no next cursor');
  const exact = await fetchRenderedPage(codec, 'scope', { limit: 5, cursor: null }, position, store(5).read);
  t.equal(exact.nextCursor, null, 'a page that holds every remaining row is the last');
});

t.test('a cursor of another scope is refused before any read', async (t) => {
  const { asked, read } = store(5);
  const cursor = codec.encode('other', positionOf(1));
  await t.rejects(fetchRenderedPage(codec, 'scope', { limit: 2, cursor }, position, read), { code: 'VALIDATION_FAILED' });
  t.same(asked, []);
});
