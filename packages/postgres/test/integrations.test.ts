import { runContract } from './contract/harness.js';
import { integrationRepositoryContract } from './contract/integrations.contract.js';

runContract(integrationRepositoryContract);
