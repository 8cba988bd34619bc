import t from 'tap';
import { madeOnFirstUse } from '../src/repositories/made-on-first-use.js';

t.test("a property is made when first read, once, and a property never read is never made", async (t) => {
  const made: string[] = [];
  const maker = (name: string) => () => {
    made.push(name);
    return { name };
  };
  const repositories = madeOnFirstUse<{ leads: { name: string }; quotes: { name: string }; garages: { name: string } }>({
    leads: maker('leads'),
    quotes: maker('quotes'),
    garages: maker('garages'),
  });
  t.same(made, [], 'nothing is made before it is read');
  const { leads } = repositories;
  t.equal(leads.name, 'leads');
  t.equal(repositories.leads, leads, 'the same object on every read');
  t.equal(repositories.quotes.name, 'quotes');
  t.same(made, ['leads', 'quotes'], 'each made once, the unread one not at all');
  t.same(Object.keys(repositories), ['leads', 'quotes', 'garages'], 'every property is listed, made or not');
});
