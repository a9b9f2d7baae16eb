// The language and the outputs people's words are told with, from the config: server.locale, and
// the targets actually configured (with CalDAV alone, nothing is "removed from Google").
import type { Voice } from '../core/activity-words.ts';
import { messagesFor, type Messages, type Output } from '../core/i18n/index.ts';
import type { Config } from './schema.ts';

/** Where the booking service's changes go, as configured, in a fixed order. */
function outputsOf(config: Pick<Config, 'google' | 'caldav' | 'microsoft' | 'feeds'>): Output[] {
  return [
    ...(config.google?.enabled ? (['google'] as const) : []),
    ...(config.caldav?.enabled ? (['caldav'] as const) : []),
    ...(config.microsoft?.enabled ? (['microsoft'] as const) : []),
    ...(config.feeds.length ? (['feeds'] as const) : []),
  ];
}

export function messagesOf(config: { server: Pick<Config['server'], 'locale'> }): Messages {
  return messagesFor(config.server.locale);
}

export function voiceOf(config: Pick<Config, 'server' | 'google' | 'caldav' | 'microsoft' | 'feeds'>): Voice {
  const outputs = outputsOf(config);
  return { m: messagesOf(config), outputs: outputs.length ? outputs : ['feeds'] };
}
