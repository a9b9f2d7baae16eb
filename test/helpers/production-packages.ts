// What `npm ci --omit=dev` installs, read from the lockfile: every package not for development only
// (and present here: optional packages for other platforms are not). The image test lays these out;
// the footprint bench weighs them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function productionPackages(repo: string): string[] {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, p]) => path.startsWith('node_modules/') && !p.dev && existsSync(join(repo, path)))
    .map(([path]) => path);
}
