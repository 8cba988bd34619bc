import t from 'tap';
import { pageBytes } from '../src/http/rendered-page.js';

const items = ['{"id":"a","name":"Pads é 漢字 🚗"}', '{"id":"b","name":"\\u2028 \\"quoted\\""}', '{"id":"c"}'];

t.test("a page's bytes are its items inside the envelope, as UTF-8, whatever the items hold", async (t) => {
  for (const [data, nextCursor] of [[items, 'eyJ0IjoxfQ'], [items.slice(0, 1), null], [[], null]] as [string[], string | null][]) {
    const bytes = pageBytes({ data, nextCursor });
    t.same(bytes, Buffer.from(`{"data":[${data.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`), `${data.length} items`);
    t.same(JSON.parse(bytes.toString('utf8')), { data: data.map((item) => JSON.parse(item) as unknown), nextCursor });
  }
});
