import { graphSimulatorTarget } from './graph-simulator.ts';
import { targetContract } from './target-contract.ts';

targetContract(graphSimulatorTarget);
