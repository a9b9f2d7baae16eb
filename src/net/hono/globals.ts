// Makes ./headers.ts and ./response.ts the process's global Headers and Response, which Hono builds
// its answers with. Called by the long-running commands (serve, demo) before anything reads the
// globals: Node loads its fetch implementation, undici, the first time one of Headers, Request or
// Response is read (13 MB of an idle daemon), and a plain assignment replaces them without reading.
// Node's fetch() is unaffected: it keeps its own classes, takes these Headers as it takes any list of
// pairs, and is loaded when first called (by Google's client, when Google is on).
import { LightHeaders } from './headers.ts';
import { LightResponse } from './response.ts';

export function useLightWebClasses(): void {
  globalThis.Headers = LightHeaders as unknown as typeof globalThis.Headers;
  globalThis.Response = LightResponse as unknown as typeof globalThis.Response;
}
