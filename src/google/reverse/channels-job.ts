// The `google-channels` job (`google.ana-channels` for another account): keeps one push channel per
// mapped calendar of the account open (channels.ts), hourly.
import type { Job, JobName, JobResult } from '../../jobs/job.ts';
import { maintainChannels, type ChannelDeps } from './channels.ts';

export function channelsJob(name: JobName, deps: () => ChannelDeps, active: { set(n: number): void }): Job {
  return {
    name,
    schedule: { everyMs: 3_600_000 },
    inSync: false,
    async run(): Promise<JobResult> {
      const d = deps();
      const r = await maintainChannels(d);
      active.set(d.store.activeCount());
      const summary = `${r.opened} opened, ${r.stopped} stopped${r.errors.length ? `; ${r.errors.join('; ')}` : ''}`;
      return { status: r.errors.length ? 'failed' : 'success', summary };
    },
  };
}
