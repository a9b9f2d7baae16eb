// What to do about a refused sign-in, made to fit the account it is about: the one place that
// chooses it for the status page, `status` and alerts (docs/reference/behaviour.md, "Alerts").
import type { Messages } from './i18n/index.ts';

/** An account as the status document names it (`google.ana`), and whether it was connected on the web. */
export interface AccountRef {
  account: string;
  connected?: true | undefined;
}

/**
 * The fix sentence for this account: the single form's (`google.default`) as written; an account of
 * `accounts:` with its `--account NAME`; an account connected on the web is in no config, so no
 * `google auth --account` can sign it in: it is connected again by a new invite (a Google one after
 * publishing the web client's app, if it is still in "Testing").
 */
export function signInFix(ref: AccountRef, sentence: string, words: Messages['signIn']): string {
  const dot = ref.account.indexOf('.');
  const kind = ref.account.slice(0, dot);
  const name = ref.account.slice(dot + 1);
  // Google ends every sign-in of an OAuth app left in "Testing" after 7 days, a connected one's too:
  // connecting again without publishing the app only buys another week.
  if (ref.connected)
    return kind === 'google' ? `${words.googlePublishFirst} ${words.connectAgain(kind, name)}` : words.connectAgain(kind, name);
  if (name === 'default') return sentence;
  return sentence.split(`calbridge ${kind} auth\``).join(`calbridge ${kind} auth --account ${name}\``);
}
