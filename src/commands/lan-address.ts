// The machine's address on its local network, for links a phone on the same network can open (the
// demo's feed and its QR code). None when the machine has only loopback and link-local addresses.
import { networkInterfaces } from 'node:os';

export function lanAddress(): string | undefined {
  // For tests and for a machine whose first interface is not the one phones reach (a VPN, Docker's bridge).
  const chosen = process.env.CALBRIDGE_DEMO_ADDRESS;
  if (chosen !== undefined) return chosen === '' ? undefined : chosen;
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) {
      if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.')) return a.address;
    }
  }
  return undefined;
}
