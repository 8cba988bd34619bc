import { runContract } from './contract/harness.js';
import { quoteRepositoryContract } from './contract/quotes.contract.js';

runContract(quoteRepositoryContract);
