// Where each feed can be subscribed: the https:// URL and the webcal:// one that opens a phone's
// subscription dialog. The token is the only guard a subscription allows, so only `feeds` prints it.
import type { Config } from '../config/schema.ts';

export interface FeedUrls {
  name: string;
  /** http(s)://{public_url}/feeds/{token}.ics: whatever scheme public_url has. */
  https: string;
  webcal: string;
}

export function feedUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/feeds/${encodeURIComponent(token)}.ics`;
}

export function webcalUrl(url: string): string {
  return url.replace(/^https?:\/\//i, 'webcal://');
}

export function feedUrls(config: Pick<Config, 'server' | 'feeds'>): FeedUrls[] {
  return config.feeds.map((f) => {
    const https = feedUrl(config.server.public_url, f.token);
    return { name: f.name, https, webcal: webcalUrl(https) };
  });
}

/** The same URLs with the token replaced by ****, for status pages and logs. */
export function maskedFeedUrls(config: Pick<Config, 'server' | 'feeds'>): FeedUrls[] {
  return feedUrls(config).map((u, i) => {
    const token = encodeURIComponent(config.feeds[i]?.token ?? '');
    const mask = (url: string) => (token ? url.split(token).join('****') : url);
    return { name: u.name, https: mask(u.https), webcal: mask(u.webcal) };
  });
}
