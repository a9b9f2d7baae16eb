// The daemon's parts, in the order `sync` runs their jobs: ingest first (state from the booking
// service), then outputs (feeds, Google), then what flows back (reverse sync).
import type { Context } from './context.ts';
import type { Part } from './part.ts';
import { createWebhookPart } from './booking/webhook-registration.ts';
import { createIngestPart } from './sync/ingest-part.ts';
import { createFeedsPart } from './feeds/feeds-part.ts';
import { createGooglePart } from './google/google-part.ts';
import { createReverseSyncPart } from './sync/reverse-sync-part.ts';

export function createParts(ctx: Context): Part[] {
  const parts: (Part | undefined)[] = [
    createIngestPart(ctx),
    createWebhookPart(ctx),
    ctx.config.feeds.length ? createFeedsPart(ctx) : undefined,
    createGooglePart(ctx),
    createReverseSyncPart(ctx),
  ];
  return parts.filter((p): p is Part => p !== undefined);
}
