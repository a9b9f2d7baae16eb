// Google's client libraries, loaded on first use: they cost tens of megabytes and a good part of a
// second, which neither `calbridge --help`, nor a daemon with google.enabled false, nor a command that
// never calls Google should pay. Both are CommonJS, so a synchronous require keeps the callers
// (an auth client built inside a synchronous getter) as they are.
import { createRequire } from 'node:module';
import type * as CalendarLibrary from '@googleapis/calendar';
import type * as AuthLibrary from 'google-auth-library';

const require = createRequire(import.meta.url);
let calendarLibrary: typeof CalendarLibrary | undefined;
let authLibrary: typeof AuthLibrary | undefined;

/** `@googleapis/calendar`: Calendar v3 alone, not the whole of googleapis. */
export function calendarLib(): typeof CalendarLibrary {
  return (calendarLibrary ??= require('@googleapis/calendar') as typeof CalendarLibrary);
}

export function authLib(): typeof AuthLibrary {
  return (authLibrary ??= require('google-auth-library') as typeof AuthLibrary);
}
