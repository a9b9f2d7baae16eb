// Keeps one Google push channel (events.watch) per mapped calendar: opens, renews before expiry
// with a new id and a new random token, then stops the old channel. Notifications only wake the
// reverse sync early; the scheduled round stays the backstop, so a failure here is never fatal.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { errorMessage } from '../../core/errors.ts';
import type { Logger } from '../../log.ts';
import type { ChannelStore } from '../../store/channel-store.ts';
import type { CalendarApi } from '../port.ts';
import { GoogleError } from '../errors.ts';
import { planChannels } from './channel-plan.ts';

export interface ChannelDeps {
  api: CalendarApi;
  store: ChannelStore;
  clock: Clock;
  log: Logger;
  /** {public_url}/google/notifications */
  address: string;
  calendars: string[];
  /** Lifetime asked of Google (it may shorten it). */
  ttlMs?: number;
  renewBeforeMs?: number;
}

const CHANNEL_TTL_MS = 7 * 86_400_000;
const RENEW_BEFORE_MS = 86_400_000;

export interface ChannelRun {
  opened: number;
  stopped: number;
  errors: string[];
}

export async function maintainChannels(deps: ChannelDeps): Promise<ChannelRun> {
  const ttl = deps.ttlMs ?? CHANNEL_TTL_MS;
  const renewBefore = Math.min(deps.renewBeforeMs ?? RENEW_BEFORE_MS, ttl / 2);
  const run: ChannelRun = { opened: 0, stopped: 0, errors: [] };
  const plan = () => planChannels(deps.store.live(), deps.calendars, deps.clock.now(), renewBefore);

  for (const calendarId of plan().open) {
    const id = randomUUID();
    const token = randomBytes(32).toString('base64url');
    const expiration = deps.clock.now() + ttl;
    // Stored first: Google's "sync" message may arrive before the watch call returns.
    deps.store.opening({ id, calendarId, token, address: deps.address, expiration });
    try {
      const r = await deps.api.watch(calendarId, { channelId: id, address: deps.address, token, expiration });
      deps.store.activate(id, r.resourceId, r.expiration ?? expiration);
      run.opened++;
    } catch (e) {
      deps.store.markStopped(id);
      run.errors.push(`watch ${calendarId}: ${errorMessage(e)}`);
    }
  }

  for (const id of plan().stop) {
    const c = deps.store.get(id);
    if (!c) continue;
    try {
      if (c.resourceId && c.expiration > deps.clock.now()) await deps.api.stopChannel(c.id, c.resourceId);
    } catch (e) {
      // 404: Google no longer knows it, which is what we wanted.
      if (!(e instanceof GoogleError && (e.kind === 'not_found' || e.kind === 'gone'))) {
        run.errors.push(`stop channel of ${c.calendarId}: ${errorMessage(e)}`);
        continue;
      }
    }
    deps.store.markStopped(id);
    run.stopped++;
  }
  deps.store.prune();
  if (run.errors.length)
    deps.log.warn({ errors: run.errors }, 'Google push channels: some calls failed; the scheduled reverse sync still runs');
  return run;
}
