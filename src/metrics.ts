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
  // A metric asked for again (each calendar account asks for its kind's) is the one registered first.
  const once = <M>(name: string, make: () => M): M => (registry.getSingleMetric(`calbridge_${name}`) as M | undefined) ?? make();
  return {
    registry,
    counter: <L extends string>(name: string, help: string, labelNames: L[] = []) =>
      once(name, () => new Counter<L>({ name: `calbridge_${name}`, help, labelNames, registers })),
    gauge: <L extends string>(name: string, help: string, labelNames: L[] = []) =>
      once(name, () => new Gauge<L>({ name: `calbridge_${name}`, help, labelNames, registers })),
    histogram: <L extends string>(name: string, help: string, labelNames: L[] = [], buckets?: number[]) =>
      once(name, () => new Histogram<L>({ name: `calbridge_${name}`, help, labelNames, registers, ...(buckets ? { buckets } : {}) })),
  };
}

/** The methods whose first argument may be a label set: each gets the fixed labels added. */
const LABELLED = new Set(['inc', 'dec', 'set', 'observe', 'startTimer']);

/**
 * The same metrics, each with fixed labels added (`{account: "google.ana"}`): a calendar account's
 * metrics keep their names and gain its label, so accounts of one kind share a series name and
 * differ by label. Callers use them exactly as unlabelled ones.
 */
export function withLabels(metrics: Metrics, fixed: Record<string, string>): Metrics {
  const extra = Object.keys(fixed);
  const bind = <M extends object>(metric: M): M =>
    new Proxy(metric, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof prop !== 'string' || !LABELLED.has(prop) || typeof value !== 'function') return value;
        return (first?: unknown, ...rest: unknown[]) => {
          const own = first !== null && typeof first === 'object';
          const labels = { ...(own ? (first as Record<string, string>) : {}), ...fixed };
          if (prop === 'startTimer') return (value as (l: unknown) => unknown).call(target, labels);
          return (value as (...a: unknown[]) => unknown).call(target, labels, ...(own ? rest : first === undefined ? [] : [first]));
        };
      },
    });
  return {
    registry: metrics.registry,
    counter: <L extends string>(name: string, help: string, labelNames: L[] = []) =>
      bind(metrics.counter<L>(name, help, [...labelNames, ...(extra as L[])])),
    gauge: <L extends string>(name: string, help: string, labelNames: L[] = []) =>
      bind(metrics.gauge<L>(name, help, [...labelNames, ...(extra as L[])])),
    histogram: <L extends string>(name: string, help: string, labelNames: L[] = [], buckets?: number[]) =>
      bind(metrics.histogram<L>(name, help, [...labelNames, ...(extra as L[])], buckets)),
  };
}
