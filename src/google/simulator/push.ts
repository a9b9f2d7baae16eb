// Watch channels of the simulated calendars and the push notifications Google sends on them: an
// HTTP POST with X-Goog-* headers and no body, dropped when the address does not answer.
import { randomBytes } from 'node:crypto';
import { CalendarApiError } from './calendar-state.ts';

export interface Channel {
  id: string;
  resourceId: string;
  calendarId: string;
  address: string;
  token?: string;
  expiration: number;
  stopped: boolean;
  messageNumber: number;
}

export type ResourceState = 'sync' | 'exists' | 'not_exists';

export class Channels {
  readonly all = new Map<string, Channel>();

  constructor(
    /** The simulator's origin, for X-Goog-Resource-URI. */
    private readonly origin: () => string,
    /** Maps a channel's (https) address to where notifications really go (a local port). */
    private readonly pushAddress?: (address: string) => string,
  ) {}

  /** POST .../events/watch: Google refuses anything but an https web_hook. */
  open(calendarId: string, body: Record<string, unknown>): Channel {
    if (typeof body.id !== 'string' || body.id.length > 64 || body.type !== 'web_hook' || typeof body.address !== 'string') {
      throw new CalendarApiError(400, 'invalid', 'Invalid channel: id (<= 64 chars), type web_hook and address are required.');
    }
    if (!body.address.startsWith('https://'))
      throw new CalendarApiError(400, 'push.webhookUrlNotHttps', `WebHook callback must be HTTPS: ${body.address}`);
    const expiration =
      typeof body.expiration === 'string' || typeof body.expiration === 'number' ? Number(body.expiration) : Date.now() + 7 * 86_400_000;
    const channel: Channel = {
      id: body.id,
      resourceId: randomBytes(18).toString('base64url'),
      calendarId,
      address: body.address,
      token: typeof body.token === 'string' ? body.token : undefined,
      expiration,
      stopped: false,
      messageNumber: 0,
    };
    this.all.set(channel.id, channel);
    void this.notify(channel.id, 'sync');
    return channel;
  }

  /** POST /channels/stop */
  stop(body: Record<string, unknown>): void {
    const ch = typeof body.id === 'string' ? this.all.get(body.id) : undefined;
    if (!ch || ch.stopped || ch.resourceId !== body.resourceId)
      throw new CalendarApiError(404, 'notFound', `Channel '${String(body.id)}' not found for project`);
    ch.stopped = true;
  }

  /** Notifies every live channel of a calendar that something changed. */
  changed(calendarId: string): void {
    for (const ch of this.all.values()) if (!ch.stopped && ch.calendarId === calendarId) void this.notify(ch.id, 'exists');
  }

  /** Delivers one notification; resolves with the answer's status, 0 when nothing answered. */
  async notify(channelId: string, state: ResourceState = 'exists'): Promise<number> {
    const ch = this.all.get(channelId);
    if (!ch || ch.stopped) throw new Error(`no live channel ${channelId}`);
    const headers: Record<string, string> = {
      'X-Goog-Channel-ID': ch.id,
      'X-Goog-Resource-ID': ch.resourceId,
      'X-Goog-Resource-State': state,
      'X-Goog-Resource-URI': `${this.origin()}/calendar/v3/calendars/${encodeURIComponent(ch.calendarId)}/events`,
      'X-Goog-Message-Number': String(++ch.messageNumber),
      'X-Goog-Channel-Expiration': new Date(ch.expiration).toUTCString(),
    };
    if (ch.token !== undefined) headers['X-Goog-Channel-Token'] = ch.token;
    try {
      const res = await fetch(this.pushAddress ? this.pushAddress(ch.address) : ch.address, { method: 'POST', headers });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0; // Google drops notifications it cannot deliver.
    }
  }
}
