import { runContract, stockRepositoryContract } from '@garage/postgres/testing';

runContract(stockRepositoryContract);
