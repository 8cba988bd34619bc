import { runContract } from './contract/harness.js';
import { stockRepositoryContract } from './contract/stock.contract.js';

runContract(stockRepositoryContract);
