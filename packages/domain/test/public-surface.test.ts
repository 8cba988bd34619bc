import { readFile } from 'node:fs/promises';
import t from 'tap';
import * as root from '../src/index.js';

const FEATURES = ['core', 'garages', 'integrations', 'catalog', 'booking', 'quotes', 'leads', 'webhooks', 'idempotency', 'admin'];

t.test('one entry point per feature, each in package.json exports, the root their union', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
  const union = new Set<string>();
  for (const feature of FEATURES) {
    t.ok(pkg.exports[`./${feature}`], `@garage/domain/${feature} is exported`);
    const entry = (await import(`../src/${feature === 'core' ? 'shared' : feature}/index.js`)) as Record<string, unknown>;
    t.ok(Object.keys(entry).length > 0, `${feature} exports something`);
    for (const name of Object.keys(entry)) union.add(name);
  }
  t.same(Object.keys(root).sort(), [...union].sort(), 'the root index adds nothing of its own');
});

t.test('the surface is curated: use cases and their limits are public, the rules behind them are not', async (t) => {
  const booking = (await import('../src/booking/index.js')) as Record<string, unknown>;
  t.type(booking.makeBookAppointment, 'function');
  t.type(booking.makeListAvailability, 'function');
  for (const internal of ['makeSlotModel', 'slotOccupancy', 'remainingCapacity', 'Checker', 'checkContact']) {
    t.notOk(internal in root, `${internal} is internal`);
  }
});
