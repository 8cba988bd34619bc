import { listItemsContract, runContract } from '@garage/postgres/testing';

runContract(listItemsContract);
