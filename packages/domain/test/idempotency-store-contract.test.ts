import t from 'tap';
import { idempotencyStoreContract, makeInMemoryIdempotencyStore } from './support.js';

// The same suite runs against the Postgres adapter: the fake and the real store are proven to behave alike.
for (const c of idempotencyStoreContract(async () => makeInMemoryIdempotencyStore())) t.test(c.name, c.run);
