import { runContract, vehicleRepositoryContract } from '@garage/postgres/testing';

runContract(vehicleRepositoryContract);
