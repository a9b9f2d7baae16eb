// One prom-client registry per process (not the global one), so tests can build many apps.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'calbridge_' });
  const registers = [registry];
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
