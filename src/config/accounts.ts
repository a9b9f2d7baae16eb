// The calendar accounts of the config, one list per kind (docs/reference/configuration.md,
// "Accounts"): a section's `accounts:` or its single form, which is the account `default`. Each
// account comes out as a whole section of its kind, its own credentials, calendars and overrides
// laid over the section's settings, so everything after this sees one shape whichever form was
// written. The one place the two forms meet.
import { sectionDefaults, type CalDavConfig, type Config, type GoogleConfig, type MicrosoftConfig } from './schema.ts';

/** One account of a kind: its name and the settings it runs with (no `accounts` left in them). */
export interface NamedAccount<C> {
  name: string;
  /** Connected on the web, not written in the config: signed in again by a new invite, not by `google auth --account`. */
  connected?: true;
  config: Omit<C, 'accounts'>;
}

export interface ConfigAccounts {
  google: NamedAccount<GoogleConfig>[];
  caldav: NamedAccount<CalDavConfig>[];
  microsoft: NamedAccount<MicrosoftConfig>[];
}

/** Drops the keys an account left out, so the section's value stays. */
const given = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export function googleAccounts(section: GoogleConfig | undefined): NamedAccount<GoogleConfig>[] {
  if (!section?.enabled) return [];
  const { accounts, ...base } = section;
  if (!accounts) return [{ name: 'default', config: base }];
  return accounts.map(({ name, ...own }) => ({ name, config: { ...base, ...given(own) } }));
}

export function caldavAccounts(section: CalDavConfig | undefined): NamedAccount<CalDavConfig>[] {
  if (!section?.enabled) return [];
  const { accounts, ...base } = section;
  if (!accounts) return [{ name: 'default', config: base }];
  return accounts.map(({ name, ...own }) => ({ name, config: { ...base, ...given(own) } }));
}

export function microsoftAccounts(section: MicrosoftConfig | undefined): NamedAccount<MicrosoftConfig>[] {
  if (!section?.enabled) return [];
  const { accounts, ...base } = section;
  if (!accounts) return [{ name: 'default', config: base }];
  return accounts.map(({ name, ...own }) => ({ name, config: { ...base, ...given(own) } }));
}

/** Every enabled calendar account of the config, per kind, in the order written. */
export function accountsOf(config: Config): ConfigAccounts {
  return {
    google: googleAccounts(config.google),
    caldav: caldavAccounts(config.caldav),
    microsoft: microsoftAccounts(config.microsoft),
  };
}

/**
 * The settings an account of this kind gets beyond its credentials and calendars (statuses, title,
 * description, pace, breaker, reverse sync, endpoints): the config's section when there is one, else
 * the schema's defaults. An account connected on the web runs with these.
 */
export function sectionSettings(config: Config): {
  google: Omit<GoogleConfig, 'accounts'>;
  caldav: Omit<CalDavConfig, 'accounts'>;
  microsoft: Omit<MicrosoftConfig, 'accounts'>;
} {
  const defaults = sectionDefaults();
  const strip = <T extends { accounts?: unknown; enabled: boolean }>(section: T): Omit<T, 'accounts'> => {
    const { accounts: _accounts, ...rest } = section;
    return { ...rest, enabled: true };
  };
  return {
    google: strip(config.google ?? defaults.google),
    caldav: strip(config.caldav ?? defaults.caldav),
    microsoft: strip(config.microsoft ?? defaults.microsoft),
  };
}

/**
 * The account a command names (`--account ana`), or why none: undefined `requested` is the single
 * form's `default`, or the only account there is. The reason lists the names that exist.
 */
export function pickAccount<C>(
  kind: string,
  accounts: readonly NamedAccount<C>[],
  requested: string | undefined,
): { ok: true; account: NamedAccount<C> } | { ok: false; reason: string } {
  const names = accounts.map((a) => a.name);
  const wanted = requested ?? (accounts.length === 1 ? accounts[0]!.name : 'default');
  const found = accounts.find((a) => a.name === wanted);
  if (found) return { ok: true, account: found };
  const list = names.length ? names.map((n) => `"${n}"`).join(', ') : 'none';
  return {
    ok: false,
    reason:
      requested === undefined
        ? `${kind} has several accounts: name one with --account (${list})`
        : `there is no ${kind} account "${requested}"; the accounts are: ${list}`,
  };
}
