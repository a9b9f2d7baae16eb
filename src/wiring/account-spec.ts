// One calendar account of any kind, as the config (config/accounts.ts) or a connection on the web
// (wiring/target-accounts.ts) gives it: what wiring/parts.ts accountPart builds a part from.
import type { NamedAccount } from '../config/accounts.ts';
import type { CalDavConfig } from '../config/schema.ts';
import type { GoogleAccountSpec } from './google-target.ts';
import type { MicrosoftAccountSpec } from './microsoft-target.ts';

export type AccountSpec =
  | ({ kind: 'google' } & GoogleAccountSpec)
  | ({ kind: 'caldav' } & NamedAccount<CalDavConfig>)
  | ({ kind: 'microsoft' } & MicrosoftAccountSpec);
