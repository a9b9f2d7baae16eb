// Which push channels to open and which to stop (pure): one live channel per mapped calendar,
// renewed with a new id well before it expires; the old one is stopped once the new one is open.

export interface ChannelView {
  id: string;
  calendarId: string;
  state: 'opening' | 'active' | 'stopped';
  expiration: number;
  createdAt: number;
}

export interface ChannelPlan {
  /** Calendars that need a new channel. */
  open: string[];
  /** Channels to stop: replaced, expired, left half-open, or of calendars no longer mapped. */
  stop: string[];
}

/** A channel still 'opening' this long after it was stored is a watch call that never finished. */
export const OPENING_GRACE_MS = 5 * 60_000;

export function planChannels(channels: ChannelView[], calendars: string[], now: number, renewBeforeMs: number): ChannelPlan {
  const open: string[] = [];
  const stop: string[] = [];
  const mapped = new Set(calendars);
  for (const calendarId of calendars) {
    const mine = channels.filter((c) => c.calendarId === calendarId && c.state !== 'stopped');
    const fresh = mine
      .filter((c) => (c.state === 'active' || now - c.createdAt < OPENING_GRACE_MS) && c.expiration - now > renewBeforeMs)
      .sort((a, b) => b.createdAt - a.createdAt)[0];
    if (!fresh) open.push(calendarId);
    // Older channels stay until a fresh one is active, so no notification is missed in between.
    if (fresh?.state === 'active' || !fresh) {
      for (const c of mine) if (c !== fresh && (fresh || c.expiration <= now || c.state === 'opening')) stop.push(c.id);
    }
  }
  for (const c of channels) if (c.state !== 'stopped' && !mapped.has(c.calendarId)) stop.push(c.id);
  return { open, stop };
}
