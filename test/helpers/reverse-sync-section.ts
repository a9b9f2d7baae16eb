// The reverse-sync part of a target's status section, for a test whose target has reverse sync on.
// The status document types it as on or off; the counters, problems and push channels a test
// reads exist only on the "on" shape, and a section that is off fails here, saying so.
import type { ReverseSyncSection, TargetSection } from '../../src/status/status-document.ts';

type ReverseSyncOn = Extract<ReverseSyncSection, { enabled: true }>;

export function reverseSyncOn(section: TargetSection | undefined): ReverseSyncOn {
  const reverse = section?.reverse_sync;
  if (!reverse?.enabled) throw new Error(`reverse sync is off in this target's status: ${JSON.stringify(section)}`);
  return reverse;
}
