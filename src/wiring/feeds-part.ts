// The feeds part: serves /feeds/{token}.ics from the one feed cache and reports each feed in status.
import { messagesOf } from '../config/voice.ts';
import { FeedCache, FeedCacheStopped } from '../feeds/feed-cache.ts';
import { FeedBodyStore } from '../store/feed-body-store.ts';
import { maskedFeedUrls } from '../feeds/feed-urls.ts';
import { feedEndpoint } from '../http/feed-routes.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

const WARM_AFTER_MS = 10_000;

export function createFeedsPart(s: Services): Part {
  const feeds = s.config.feeds;
  const log = s.log.child({ module: 'feeds' });
  const requests = s.metrics.counter('feed_requests_total', 'Feed requests by outcome', ['outcome']);
  const rendered = s.metrics.counter('feed_events_rendered_total', 'Feed events rendered (not served from stored fragments)');
  const path = s.config.database.path;
  // Assembled bodies beside the database, as its -wal and -shm files are: a cache of it (docs/reference/behaviour.md, "Retention").
  const bodies = new FeedBodyStore(path === ':memory:' ? null : `${path}-feeds`);
  const cache = new FeedCache({
    feeds,
    messages: messagesOf(s.config),
    appointments: s.appointments,
    store: s.fragments,
    bodies,
    clock: s.clock,
    onRendered: (n) => rendered.inc(n),
  });
  const unsubscribe = s.appointments.changes.subscribe(({ key }) => cache.noteChange(key));
  const byOutcome = { ok: requests.labels('ok'), not_modified: requests.labels('not_modified'), not_found: requests.labels('not_found') };
  const endpoint = feedEndpoint({ feeds, feed: (i) => cache.feed(i), onRequest: (outcome) => byOutcome[outcome].inc() });
  let warming: NodeJS.Timeout | undefined;

  return {
    name: 'feeds',
    routes: endpoint.routes,
    // At debug every request goes through the app, whose request log writes a line for each 304 too.
    shortcut: (incoming, outgoing) => !s.log.isLevelEnabled('debug') && endpoint.notModified(incoming, outgoing),
    async start() {
      cache.serve();
      // Assemble every feed a little after start, so the first phone to ask gets it at once. Not at
      // once: /healthz, /readyz and the webhooks get the first seconds to themselves. The assembly
      // lets the event loop go every few milliseconds, so requests meanwhile are answered.
      warming = setTimeout(() => {
        void (async () => {
          for (let i = 0; i < feeds.length; i++) await cache.feed(i);
        })().catch((e: unknown) => {
          if (!(e instanceof FeedCacheStopped)) log.warn({ err: e }, 'feeds could not be prepared; they are built on the first request');
        });
      }, WARM_AFTER_MS);
      warming.unref();
    },
    async stop() {
      clearTimeout(warming);
      cache.stop();
      unsubscribe();
    },
    status() {
      const urls = maskedFeedUrls(s.config);
      return {
        feeds: {
          feeds: feeds.map((f, i) => {
            const { events, lastChange } = cache.summary(i);
            return {
              name: f.name,
              privacy: f.privacy,
              events,
              last_change: lastChange === null ? null : new Date(lastChange).toISOString(),
              url: urls[i]?.https,
              webcal: urls[i]?.webcal,
            };
          }),
        },
      };
    },
  };
}
