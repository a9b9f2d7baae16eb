// The address rule (address-rule.ts) where a connection is made: a host name is resolved by the
// lookup the socket itself uses (`lookup` of node:net), and a connection whose name answers with an
// address inside this network is refused before it is opened. Checking the name once, at the form,
// would not do: DNS may answer a public address then and 127.0.0.1 at the next pass (rebinding). An
// address written in the URL is never looked up by node:net, so it is checked here as it is.
import { promises as dns } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { insideRange } from './address-rule.ts';

/** Every address a host name resolves to (the seam tests answer through; the system's resolver by default). */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: ResolveHost = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** A connection refused because its address is inside this network; nothing was sent. */
export class InsideNetworkError extends Error {
  override name = 'InsideNetworkError';
  readonly code = 'EINSIDENETWORK';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(
      `${host === address ? address : `${host} resolves to ${address}`}, ${range}: an address inside this network, which an account connected by a link may not reach; nothing was sent (connect.caldav_private_addresses allows it)`,
    );
  }
}

/** The InsideNetworkError behind a failed request (the socket's error, under the transport's), if that is what it was. */
export function insideNetworkCause(e: unknown): InsideNetworkError | undefined {
  for (let at = e, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    if (at instanceof InsideNetworkError) return at;
  }
  return undefined;
}

const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** Throws InsideNetworkError when the URL's host is an address (not a name) inside this network. */
export function requirePublicLiteral(url: URL): void {
  const host = bare(url.hostname);
  if (!isIP(host)) return;
  const range = insideRange(host);
  if (range) throw new InsideNetworkError(host, host, range);
}

/** Resolves `hostname` and throws InsideNetworkError when any of its addresses is inside this network. */
export async function requirePublicHost(hostname: string, resolve: ResolveHost = systemResolve): Promise<void> {
  const host = bare(hostname);
  if (isIP(host)) return requirePublicLiteral(new URL(`http://${hostname}/`));
  publicOnly(host, await resolve(host));
}

/** The addresses, when none is inside this network. One inside is enough to refuse the name: which one a socket picks is not ours to say. */
function publicOnly<T extends { address: string }>(host: string, found: T[]): T[] {
  for (const a of found) {
    const range = insideRange(a.address);
    if (range) throw new InsideNetworkError(host, a.address, range);
  }
  return found;
}

const familyOf = (f: unknown): 4 | 6 | undefined => (f === 4 || f === 'IPv4' ? 4 : f === 6 || f === 'IPv6' ? 6 : undefined);

/** node:net's `lookup`, answering only public addresses; anything else is an InsideNetworkError on the socket. */
export function publicLookup(resolve: ResolveHost = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        let usable: { address: string; family: number }[];
        try {
          const family = familyOf(options.family);
          usable = publicOnly(hostname, found).filter((a) => family === undefined || a.family === family);
        } catch (e) {
          callback(e as NodeJS.ErrnoException, '');
          return;
        }
        const first = usable[0];
        if (!first) callback(Object.assign(new Error(`${hostname}: no address of the family asked`), { code: 'ENOTFOUND' }), '');
        else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (e: unknown) => callback(e as NodeJS.ErrnoException, ''),
    );
  };
}
