import { leadRepositoryContract, runContract } from '@garage/postgres/testing';

runContract(leadRepositoryContract);
