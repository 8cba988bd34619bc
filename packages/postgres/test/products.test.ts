import { productRepositoryContract, runContract } from '@garage/testkit/postgres';

runContract(productRepositoryContract);
