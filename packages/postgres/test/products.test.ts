import { runContract } from './contract/harness.js';
import { productRepositoryContract } from './contract/products.contract.js';

runContract(productRepositoryContract);
