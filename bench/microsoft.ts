// The Microsoft section alone, printed, not written to BENCHMARKS.md:
// `node scripts/modern-node.js bin/run-ts.js bench/microsoft.ts`; BENCH_MICROSOFT_BACKFILL (appointments,
// default 2,000) and BENCH_MICROSOFT_RPM (requests_per_minute, default 1,000) change the backfill.
import { runMicrosoftBench } from './microsoft-bench.ts';

process.stdout.write(`${await runMicrosoftBench()}\n`);
process.exit(0);
