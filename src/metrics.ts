// One prom-client registry per process (not the global one), so tests can build many apps.
// prom-client's parts one by one: its index also loads the Pushgateway client (node:https and TLS,
// node:zlib) and the cluster aggregator, which calbridge never uses; megabytes resident for nothing (BENCHMARKS.md, "Footprint").
// Their types are the index's (prom-client-parts.d.ts).
import Counter from 'prom-client/lib/counter.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';
import collectDefaultMetrics from 'prom-client/lib/defaultMetrics.js';
import { packageVersion } from './version.ts';

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  // The standard names (process_cpu_seconds_total, nodejs_heap_size_used_bytes, ...), so the usual
  // dashboards and alerts for Node.js processes work as they are.
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  new Gauge({
    name: 'calbridge_build_info',
    help: 'Always 1; its labels say which calbridge and which Node.js run here',
    labelNames: ['version', 'node'],
    registers,
  }).set({ version: packageVersion(), node: process.versions.node }, 1);
  return {
    registry,
    counter: <L extends string>(name: string, help: string, labelNames: L[] = []) =>
      new Counter<L>({ name: `calbridge_${name}`, help, labelNames, registers }),
    gauge: <L extends string>(name: string, help: string, labelNames: L[] = []) =>
      new Gauge<L>({ name: `calbridge_${name}`, help, labelNames, registers }),
    histogram: <L extends string>(name: string, help: string, labelNames: L[] = [], buckets?: number[]) =>
      new Histogram<L>({ name: `calbridge_${name}`, help, labelNames, registers, ...(buckets ? { buckets } : {}) }),
  };
}
