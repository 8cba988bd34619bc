import { garageRepositoryContract, runContract } from '@garage/testkit/postgres';

runContract(garageRepositoryContract);
