import { radicaleTarget } from './radicale-server.ts';
import { targetContract } from './target-contract.ts';

targetContract(radicaleTarget);
