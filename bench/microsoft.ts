// The Microsoft section alone, printed, not written to BENCHMARKS.md:
// `node scripts/modern-node.js bin/run-ts.js bench/microsoft.ts [appointments] [requests_per_minute]`.
import { runMicrosoftBench } from './microsoft-bench.ts';

const [count, rpm] = process.argv.slice(2).map(Number);
process.stdout.write(`${await runMicrosoftBench({ ...(count ? { count } : {}), ...(rpm ? { rpm } : {}) })}\n`);
process.exit(0);
