import { integrationRepositoryContract, runContract } from '@garage/testkit/postgres';

runContract(integrationRepositoryContract);
