// A feeds part on a real SQLite file, requested through Hono's app.request (no socket).
import { Hono } from 'hono';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { createFeedsPart } from '../../src/feeds/feeds-part.ts';
import type { Part } from '../../src/part.ts';
import type { ManualClock } from '../../src/core/clock.ts';

export const TOKEN = 'feed-token-0123456789-abcdef';
export const OTHER_TOKEN = 'other-feed-token-9876543210';

export interface FeedHarness extends TestContext {
  part: Part;
  app: Hono;
  clock: ManualClock;
  get(path: string, headers?: Record<string, string>, method?: string): Promise<Response>;
  /** A new part over the same database: what a restarted daemon has. */
  restart(): void;
  rendered(): Promise<number>;
}

export function feedHarness(feeds: Record<string, unknown>[] = [{ name: 'Clinic', token: TOKEN }]): FeedHarness {
  const t = createTestContext({ config: testConfig({ server: { public_url: 'https://cal.example.com/' }, feeds }) });
  const build = () => {
    const part = createFeedsPart(t.ctx);
    const app = new Hono();
    app.notFound((c) => c.json({ error: 'not found' }, 404));
    part.routes?.(app);
    return { part, app };
  };
  let built = build();
  const h: FeedHarness = {
    ...t,
    clock: t.clock as ManualClock,
    get part() {
      return built.part;
    },
    get app() {
      return built.app;
    },
    get: (path, headers = {}, method = 'GET') => Promise.resolve(built.app.request(path, { method, headers })),
    restart() {
      void built.part.stop?.();
      t.ctx.metrics.registry.clear();
      built = build();
    },
    async rendered() {
      const metric = await t.ctx.metrics.registry.getSingleMetric('calbridge_feed_events_rendered_total')?.get();
      return metric?.values[0]?.value ?? 0;
    },
  };
  return h;
}
