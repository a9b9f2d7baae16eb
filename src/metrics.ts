// One prom-client registry per process (not the global one), so tests can build many apps.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
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
