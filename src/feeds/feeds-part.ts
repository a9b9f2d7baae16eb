// The feeds part: serves /feeds/{token}.ics from the feed cache and reports each feed in status.
import type { Context } from '../context.ts';
import type { Part } from '../part.ts';
import { FeedFragmentStore } from '../store/feed-fragment-store.ts';
import { feedRoutes } from '../http/feed-routes.ts';
import { FeedCache } from './feed-cache.ts';
import { maskedFeedUrls } from './feed-urls.ts';

export function createFeedsPart(ctx: Context): Part {
  const feeds = ctx.config.feeds;
  const requests = ctx.metrics.counter('feed_requests_total', 'Feed requests by outcome', ['outcome']);
  const rendered = ctx.metrics.counter('feed_events_rendered_total', 'Feed events rendered (not served from stored fragments)');
  const cache = new FeedCache({
    feeds,
    appointments: ctx.appointments,
    store: new FeedFragmentStore(ctx.db),
    clock: ctx.clock,
    onRendered: (n) => rendered.inc(n),
  });
  const unsubscribe = ctx.appointments.onChange((key) => cache.noteChange(key));
  let warming: NodeJS.Timeout | undefined;

  return {
    name: 'feeds',
    routes(app) {
      const byOutcome = { ok: requests.labels('ok'), not_modified: requests.labels('not_modified'), not_found: requests.labels('not_found') };
      feedRoutes(app, { feeds, feed: (i) => cache.feed(i), onRequest: (outcome) => byOutcome[outcome].inc() });
    },
    async start() {
      // Assemble every feed once the server listens, so the first phone to ask gets it at once.
      warming = setTimeout(() => {
        try {
          feeds.forEach((_f, i) => cache.feed(i));
        } catch (e) {
          ctx.log.warn({ err: e }, 'feeds could not be prepared; they are built on the first request');
        }
      }, 0);
      warming.unref();
    },
    async stop() {
      clearTimeout(warming);
      unsubscribe();
    },
    status() {
      const urls = maskedFeedUrls(ctx.config);
      return {
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
      };
    },
  };
}
