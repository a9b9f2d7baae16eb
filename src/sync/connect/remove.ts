// Removing a connected account (`connections remove NAME`, the connections page): by its name alone
// when only one kind holds it, else as `{kind}.{name}`. Its credentials go; its links stay, so the
// events it wrote stay in place (docs/reference/http.md, "Connect").
import type { Connection, ConnectStore } from '../../store/connect-store.ts';

export type Removal = { ok: true; account: string } | { ok: false; reason: string };

export function removeConnection(store: ConnectStore, given: string): Removal {
  const all = store.list();
  const matches = all.filter((c) => `${c.kind}.${c.name}` === given || c.name === given);
  const exact = matches.filter((c) => `${c.kind}.${c.name}` === given);
  const found: Connection[] = exact.length ? exact : matches;
  if (found.length === 0) {
    const known = all.map((c) => `${c.kind}.${c.name}`);
    return { ok: false, reason: `no connected account is named "${given}"${known.length ? ` (connected: ${known.join(', ')})` : ''}` };
  }
  if (found.length > 1)
    return { ok: false, reason: `"${given}" names ${found.map((c) => `${c.kind}.${c.name}`).join(' and ')}; give one of those` };
  const c = found[0]!;
  store.remove(c.kind, c.name);
  return { ok: true, account: `${c.kind}.${c.name}` };
}
