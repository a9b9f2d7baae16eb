// Where serve is in its life, as a readiness share: /readyz answers 503 until the scheduler and the
// parts run, and again once serve is draining, so an orchestrator sends traffic only in between.
import type { Part } from './part.ts';

export type Phase = 'starting' | 'serving' | 'stopping';

export interface Lifecycle {
  /** Its readiness: a reason until `serve` has started, and again once it is stopping. */
  part: Part;
  set(phase: Phase): void;
}

export function createLifecycle(): Lifecycle {
  let phase: Phase = 'starting';
  const reasons: Record<Phase, string[]> = {
    starting: ['starting: the scheduler and the parts are not running yet'],
    serving: [],
    stopping: ['stopping: finishing the work in flight'],
  };
  return {
    part: { name: 'lifecycle', readiness: () => ({ reasons: reasons[phase], warnings: [] }) },
    set(next) {
      phase = next;
    },
  };
}
