// calbridge's version: package.json's, read once. package.json sits one folder above this file both
// in a checkout (src/) and in the compiled output (dist/).
import { readFileSync } from 'node:fs';

let version: string | undefined;

export function calbridgeVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
