import { quoteRepositoryContract, runContract } from '@garage/postgres/testing';

runContract(quoteRepositoryContract);
