// The one source of calbridge's version: package.json's, read when first asked for. package.json
// sits beside src/ in a checkout and in the image alike.
import { readFileSync } from 'node:fs';

let version: string | undefined;

export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
