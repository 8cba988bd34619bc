import { runContract } from './contract/harness.js';
import { leadRepositoryContract } from './contract/leads.contract.js';

runContract(leadRepositoryContract);
