import { leadRepositoryContract, runContract } from '@garage/testkit/postgres';

runContract(leadRepositoryContract);
