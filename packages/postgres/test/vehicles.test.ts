import { runContract } from './contract/harness.js';
import { vehicleRepositoryContract } from './contract/vehicles.contract.js';

runContract(vehicleRepositoryContract);
