// Google as the contract drives it: the real googleapis client (the product's adapter) against the
// Google Calendar simulator, a person's edits made in the simulator's own state.
import { DateTime } from 'luxon';
import { systemClock } from '../../src/core/clock.ts';
import { PROP_HASH, PROP_KEY, type EventBody } from '../../src/core/mirror/desired-event.ts';
import { oauthClient } from '../../src/google/auth.ts';
import { createCalendarAdapter } from '../../src/google/calendar-adapter.ts';
import { createGoogleTarget } from '../../src/google/google-target.ts';
import { startGoogleSimulator } from '../../src/google/simulator/index.ts';
import { Pacer } from '../../src/net/pacer.ts';
import { testGoogleConfig } from '../google/google-env.ts';
import type { TargetFixture } from './target-contract.ts';

const ZONE = 'America/Sao_Paulo';
const local = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: ZONE }).toISO()!, timeZone: ZONE });

export const googleSimulatorTarget: TargetFixture<EventBody> = {
  name: 'Google (simulator, googleapis client)',
  async start() {
    // Only the calendars handed out exist for this identity: any other id is a calendar not found.
    const visible: Record<string, 'owner'> = {};
    const fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1', calendars: visible });
    const auth = oauthClient(testGoogleConfig(fake));
    auth.setCredentials({ refresh_token: 'refresh-1' });
    const api = createCalendarAdapter({
      auth,
      apiRoot: fake.rootUrl,
      pacer: new Pacer(100_000, systemClock),
      clock: systemClock,
      policy: { retries: 0, baseMs: 1, maxMs: 1 },
    });
    let calendars = 0;
    return {
      target: createGoogleTarget(api),
      async calendar() {
        const id = `contract-${++calendars}@group.calendar.google.com`;
        visible[id] = 'owner';
        return id;
      },
      id: (n) => `contract0${n}`,
      body: (key, start, end, hash) => ({
        summary: key,
        description: '',
        status: 'confirmed',
        start: local(start),
        end: local(end),
        privateProperties: { [PROP_KEY]: key, [PROP_HASH]: hash },
      }),
      async personMoves(cal, id, start, end) {
        fake.state.userEdit(cal, id, { start: local(start), end: local(end) });
      },
      async personDeletes(cal, id) {
        fake.state.userDelete(cal, id);
      },
      keepsTombstones: true,
      stop: () => fake.close(),
    };
  },
};
