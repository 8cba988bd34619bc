import t from 'tap';
import { systemClock } from './support.js';
import { inMemoryHarness, webhookStoreContract } from '../src/testing/index.js';

// The same suite runs against Postgres and PGlite in packages/postgres: the fake is proven to behave like them.
const harness = inMemoryHarness(systemClock);

for (const contractCase of webhookStoreContract) {
  t.test(contractCase.name, async () => {
    await harness.reset();
    await contractCase.run(harness);
  });
}
