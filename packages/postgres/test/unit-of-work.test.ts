import { runContract, unitOfWorkContract } from '@garage/testkit/postgres';

runContract(unitOfWorkContract);
