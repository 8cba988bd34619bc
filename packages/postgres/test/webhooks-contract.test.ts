import { webhookStoreContract } from '@garage/domain/testing';
import t from 'tap';
import { backends, postgresHarness } from '@garage/postgres/testing';

// The suite the in-memory fake passes too (packages/domain/test/webhooks-store-contract.test.ts).
for (const backend of backends) {
  t.test(backend.name, async (t) => {
    const { handle, drop } = await backend.open();
    t.teardown(drop);
    const harness = postgresHarness(handle.db);
    for (const contractCase of webhookStoreContract) {
      t.test(contractCase.name, async () => {
        await harness.reset();
        await contractCase.run(harness);
      });
    }
  });
}
