import { runContract, stockRepositoryContract } from '@garage/testkit/postgres';

runContract(stockRepositoryContract);
