import { quoteRepositoryContract, runContract } from '@garage/testkit/postgres';

runContract(quoteRepositoryContract);
