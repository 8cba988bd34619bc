import { readFile } from 'node:fs/promises';
import t from 'tap';
import * as root from '../src/index.js';
import * as testing from '../src/testing/index.js';

t.test('two entries: the domain and its test support, nothing else importable', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
  t.same(Object.keys(pkg.exports).sort(), ['.', './testing']);
  t.ok(Object.keys(testing).length > 0, 'the testing entry exports the fakes and mothers');
});

t.test('the index is a curated list: every export named, none re-exported wholesale', async (t) => {
  const index = await readFile(new URL('../src/index.ts', import.meta.url), 'utf8');
  t.notMatch(index, /export \*/, 'no `export *`');
});

t.test('the surface is curated: use cases and their limits are public, the rules behind them are not', async (t) => {
  for (const useCase of ['makeBookAppointment', 'makeRescheduleAppointment', 'makeListAvailability', 'makeDecideQuote', 'makeSubmitLead']) {
    t.type((root as Record<string, unknown>)[useCase], 'function', `${useCase} is public`);
  }
  for (const internal of ['makeSlotModel', 'slotOccupancy', 'remainingCapacity', 'ensureRoomUnderLock', 'Checker', 'checkContact']) {
    t.notOk(internal in root, `${internal} is internal`);
  }
});

t.test('the testing entry is not part of the product surface', async (t) => {
  for (const name of Object.keys(testing)) t.notOk(name in root, `${name} is test support only`);
});
