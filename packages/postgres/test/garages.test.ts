import { garageRepositoryContract, runContract } from '@garage/postgres/testing';

runContract(garageRepositoryContract);
