import { googleSimulatorTarget } from './google-simulator.ts';
import { targetContract } from './target-contract.ts';

targetContract(googleSimulatorTarget);
