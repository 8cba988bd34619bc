import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cliFails, cliJson, UUID } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

const { env, query } = await cliDatabase(t);
const dir = t.testdir();
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

await cliJson(t, ['garage', 'create', '--slug', 'north', '--name', 'Garage Nord'], env);

const stockOf = async () =>
  Object.fromEntries(
    (await query<{ sku: string; quantity: number }>('select p.sku, s.quantity from stock s join products p on p.id = s.product_id')).map((r) => [r.sku, r.quantity]),
  );

t.test('import products, stock and vehicles print {upserted, ids}', async (t) => {
  const products = await cliJson(t, ['import', 'products', '--garage', 'north', file('products.json', [
    { sku: 'OIL-5W30', name: 'Engine oil 5W-30', priceCents: 4290, category: 'Lubricants', vatRate: 20, unit: 'litre' },
    { sku: 'PADS-F', name: 'Front brake pads', priceCents: 5490 },
  ])], env);
  t.same(Object.keys(products), ['upserted', 'ids']);
  t.equal(products.upserted, 2);
  t.same(Object.keys(products.ids).sort(), ['OIL-5W30', 'PADS-F']);
  for (const id of Object.values(products.ids)) t.match(id, UUID);

  const again = await cliJson(t, ['import', 'products', '--garage', 'north', file('products-2.json', [{ sku: 'OIL-5W30', name: 'Engine oil 5W-30 (5 L)', priceCents: 4490 }])], env);
  t.same(again, { upserted: 1, ids: { 'OIL-5W30': products.ids['OIL-5W30'] } }, 'upserted by sku: same id');
  const [oil] = await query('select name, price_cents::int as price from products where sku = $1', ['OIL-5W30']);
  t.same(oil, { name: 'Engine oil 5W-30 (5 L)', price: 4490 });

  const stock = await cliJson(t, ['import', 'stock', '--garage', 'north', file('stock.json', [{ sku: 'OIL-5W30', quantity: 12 }, { sku: 'PADS-F', quantity: 4 }])], env);
  t.same(stock, { upserted: 2, ids: { 'OIL-5W30': products.ids['OIL-5W30'], 'PADS-F': products.ids['PADS-F'] } });
  t.same(await stockOf(), { 'OIL-5W30': 12, 'PADS-F': 4 });

  const vehicles = await cliJson(t, ['import', 'vehicles', '--garage', 'north', file('vehicles.json', [
    { reference: 'VO-1', make: 'Peugeot', model: '208', year: 2021, mileageKm: 32000, fuel: 'petrol', gearbox: 'manual', priceCents: 1549000, photos: ['https://img.example/1.jpg'] },
  ])], env);
  t.equal(vehicles.upserted, 1);
  t.same(Object.keys(vehicles.ids), ['VO-1']);
  t.match(vehicles.ids['VO-1'], UUID);
});

t.test('a failing import writes nothing and says why', async (t) => {
  await Promise.all([
    cliFails(t, ['import', 'stock', '--garage', 'north', file('stock-unknown.json', [{ sku: 'OIL-5W30', quantity: 99 }, { sku: 'NOPE', quantity: 1 }]), '--json'], env, 1, [
      /INVALID_REFERENCE/, /NOPE/,
    ]),
    cliFails(t, ['import', 'products', '--garage', 'north', file('products-bad.json', [{ sku: 'NEW-1', name: 'New', priceCents: 1 }, { sku: 'NEW-2', name: 'Bad', priceCents: 'free' }]), '--json'], env, 1, [
      /VALIDATION_FAILED/, /\/1\/priceCents: /,
    ]),
    cliFails(t, ['import', 'vehicles', '--garage', 'north', file('vehicles-bad.json', [{ reference: 'VO-9', make: 'Fiat', model: '500', year: 2020, mileageKm: 1, fuel: 'steam', gearbox: 'manual', priceCents: 1, wheels: 4 }]), '--json'], env, 1, [
      /\/0\/fuel: /, /\/0\/wheels: /,
    ]),
    cliFails(t, ['import', 'products', '--garage', 'north', file('object.json', { sku: 'X' }), '--json'], env, 1, [/array/]),
    cliFails(t, ['import', 'products', '--garage', 'north', file('broken.json', '[{"sku": '), '--json'], env, 1, [/broken\.json is not valid JSON/]),
    cliFails(t, ['import', 'products', '--garage', 'north', join(dir, 'missing.json'), '--json'], env, 1, [/cannot read .*missing\.json/]),
    cliFails(t, ['import', 'products', '--garage', 'nowhere', file('ok.json', []), '--json'], env, 2, [/NOT_FOUND/]),
    cliFails(t, ['import', 'products', '--garage', 'north', '--json'], env, 1, [/missing required argument 'file'/]),
  ]);
  t.same(await stockOf(), { 'OIL-5W30': 12, 'PADS-F': 4 }, 'the known sku of the failed stock import kept its quantity');
  t.same((await query<{ sku: string }>('select sku from products order by sku')).map((r) => r.sku), ['OIL-5W30', 'PADS-F']);
  t.same((await query<{ reference: string }>('select reference from vehicles')).map((r) => r.reference), ['VO-1']);
});

t.test('quote create prints {id, number, token}', async (t) => {
  const quote = await cliJson(t, [
    'quote', 'create', '--garage', 'north', '--customer', 'Jeanne Martin',
    '--line', 'Front brake pads|1|5490|20', '--line', 'Workshop labour|1.5|6500|20', '--expires-at', '2030-01-31T18:00:00+01:00',
  ], env);
  t.same(Object.keys(quote).sort(), ['id', 'number', 'token']);
  t.match(quote.id, UUID);
  t.type(quote.number, 'string');
  t.match(quote.token, /^[A-Za-z0-9_-]{22,}$/, 'URL-safe token');
  const [row] = await query<any>('select * from quotes where id = $1', [quote.id]);
  t.equal(row.customer_name, 'Jeanne Martin');
  t.equal(new Date(row.expires_at).toISOString(), '2030-01-31T17:00:00.000Z');
  t.same(row.lines.map((l: any) => [l.label, l.quantity, l.unitPriceCents, l.vatRate]), [['Front brake pads', 1, 5490, 20], ['Workshop labour', 1.5, 6500, 20]]);
  t.notOk(JSON.stringify(row).includes(quote.token), 'the token is not stored in clear');

  const [defaulted, past] = await Promise.all([
    cliJson(t, ['quote', 'create', '--garage', 'north', '--customer', 'Paul', '--line', 'Oil change|1|4990|20'], env),
    cliJson(t, ['quote', 'create', '--garage', 'north', '--customer', 'Late', '--line', 'Oil change|1|4990|20', '--expires-at', '2020-01-01T00:00:00Z'], env),
  ]);
  t.not(defaulted.number, quote.number, 'each quote has its own number');
  const [d] = await query<{ expires_at: Date }>('select expires_at from quotes where id = $1', [defaulted.id]);
  const days = ((d?.expires_at.getTime() ?? 0) - Date.now()) / 86_400_000;
  t.ok(days > 29.9 && days <= 30, `no --expires-at: 30 days from now (${days})`);
  const [p] = await query<{ expires_at: Date }>('select expires_at from quotes where id = $1', [past.id]);
  t.equal(p?.expires_at.toISOString(), '2020-01-01T00:00:00.000Z', 'a past expiry is allowed');

  await Promise.all([
    cliFails(t, ['quote', 'create', '--garage', 'north', '--customer', 'X', '--line', 'Oil|1|49.90|20', '--json'], env, 1, [/--line/, /unitPriceCents/]),
    cliFails(t, ['quote', 'create', '--garage', 'north', '--customer', 'X', '--line', 'Oil|1|4990', '--json'], env, 1, [/label\|qty\|unitPriceCents\|vatRate/]),
    cliFails(t, ['quote', 'create', '--garage', 'north', '--customer', 'X', '--line', 'Oil|1|4990|20', '--expires-at', 'tomorrow', '--json'], env, 1, [/--expires-at/, /RFC 3339/]),
    cliFails(t, ['quote', 'create', '--garage', 'north', '--customer', 'X', '--line', 'Oil|1|4990|20', '--expires-at', '2030-02-30T10:00:00Z', '--json'], env, 1, [/--expires-at/]),
    cliFails(t, ['quote', 'create', '--garage', 'north', '--customer', 'X', '--line', 'Oil|1|4990|250', '--json'], env, 1, [/\/lines\/0\/vatRate: /]),
    cliFails(t, ['quote', 'create', '--garage', 'north', '--customer', 'X', '--json'], env, 1, [/--line/]),
    cliFails(t, ['quote', 'create', '--garage', 'nowhere', '--customer', 'X', '--line', 'Oil|1|4990|20', '--json'], env, 2, [/NOT_FOUND/]),
  ]);
  t.equal((await query('select id from quotes')).length, 3);
});
