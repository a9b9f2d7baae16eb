// PKCE (RFC 7636) for the authorization code sign-in of a connect link: a random verifier kept
// sealed in the database, its S256 challenge sent to the provider, and a random state bound to the
// invite. 256 bits each, base64url (43 characters, within the 43..128 the RFC allows).
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const newState = (): string => randomBytes(32).toString('base64url');
