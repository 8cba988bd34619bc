import { garageRepositoryContract } from './contract/garages.contract.js';
import { runContract } from './contract/harness.js';

runContract(garageRepositoryContract);
