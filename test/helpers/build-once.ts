// vitest globalSetup: the tests that start calbridge as a process run the compiled program (dist/),
// as users and the image do, so it is brought up to date with the sources once before any test.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'build.js')], { stdio: 'inherit' });
}
