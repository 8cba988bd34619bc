import { integrationRepositoryContract, runContract } from '@garage/postgres/testing';

runContract(integrationRepositoryContract);
