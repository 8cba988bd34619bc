import { productRepositoryContract, runContract } from '@garage/postgres/testing';

runContract(productRepositoryContract);
