// Retention as a part of the daemon: its hourly job (sync/retention.ts), woken at start.
import { createRetention } from '../sync/retention.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

export function createRetentionPart(s: Services): Part {
  const retention = createRetention({
    clock: s.clock,
    deliveries: s.deliveries,
    actions: s.anyActions,
    cursors: s.cursors,
    invites: s.connections,
  });
  return {
    name: 'retention',
    jobs: [retention.job],
    async start() {
      s.wake('retention'); // a daemon restarted more often than hourly still prunes
    },
    status: () => retention.status(),
  };
}
