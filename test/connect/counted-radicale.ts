// The CalDAV server of the tests of addresses inside the network: Radicale with one user and their
// calendar `/<user>/office/`, behind a proxy that counts every request reaching it, so a test can
// show that nothing was sent there. Started before the file's tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { CalendarApp } from '../caldav/calendar-app.ts';
import { startFailingProxy, type FailingProxy } from '../caldav/failing-proxy.ts';
import { startRadicale, type Radicale } from '../caldav/radicale.ts';

export interface CountedRadicale {
  /** The proxy's address, `http://127.0.0.1:<port>/`: every request through it is counted. */
  readonly url: string;
  readonly port: string;
  /** The user's office calendar, at the proxy's address. */
  readonly office: string;
  /** Requests that have reached the server so far. */
  requests(): number;
}

/** Call at a test file's top level. */
export function countedRadicale(user: string, password: string): CountedRadicale {
  let radicale: Radicale | undefined;
  let proxy: FailingProxy | undefined;
  let office = '';
  beforeAll(async () => {
    radicale = await startRadicale({ users: { [user]: password } });
    proxy = await startFailingProxy({ target: radicale.url, share: 0, seed: 1 });
    office = await new CalendarApp(proxy.url, user, password).makeCalendar(`/${user}/office/`, 'Consultório');
  });
  afterAll(async () => {
    await proxy?.stop();
    await radicale?.stop();
  });
  const started = () => {
    if (!proxy) throw new Error('Radicale is started before the tests: use it inside one');
    return proxy;
  };
  return {
    get url() {
      return started().url;
    },
    get port() {
      return new URL(started().url).port;
    },
    get office() {
      return office;
    },
    requests: () => started().stats.requests,
  };
}
