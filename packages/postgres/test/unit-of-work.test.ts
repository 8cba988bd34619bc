import { runContract } from './contract/harness.js';
import { unitOfWorkContract } from './contract/unit-of-work.contract.js';

runContract(unitOfWorkContract);
