import { runContract, unitOfWorkContract } from '@garage/postgres/testing';

runContract(unitOfWorkContract);
