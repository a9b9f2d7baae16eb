// The daemon's parts, in the order `sync` runs their jobs: ingest first (state from the booking
// service), then outputs (feeds, Google), then what flows back (reverse sync).
import type { Context } from './context.ts';
import type { Part } from './part.ts';

export function createParts(ctx: Context): Part[] {
  const parts: (Part | undefined)[] = [
    // parts are added here as they are built
  ];
  void ctx;
  return parts.filter((p): p is Part => p !== undefined);
}
