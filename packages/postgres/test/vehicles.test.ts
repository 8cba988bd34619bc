import { runContract, vehicleRepositoryContract } from '@garage/testkit/postgres';

runContract(vehicleRepositoryContract);
