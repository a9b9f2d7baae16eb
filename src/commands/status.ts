import { existsSync } from 'node:fs';
// Not a lazy import(): the bundle (scripts/build.js) gives a CommonJS package that other chunks import
// statically only a default export when it is import()ed, and yaml is loaded with the config anyway.
import { stringify } from 'yaml';
import { UserError } from '../core/errors.ts';
import type { Command } from './command.ts';

export const statusCommand: Command = {
  name: 'status',
  summary: 'counts, last poll, pending and failed work, last errors, from the database',
  help: 'Reads the database that serve and sync write (safe while `serve` runs). --json prints the same document as GET /api/status.',
  options: { json: { type: 'boolean', description: 'print JSON instead of text' } },
  async run({ values, io, loadConfig, openRuntime }) {
    const { configuredSecrets, redactStatus } = await import('../http/status-page/redact.ts');
    const config = loadConfig();
    const file = config.database.path;
    if (file !== ':memory:' && !existsSync(file)) {
      // A typo in database.path would otherwise show an empty, healthy-looking status.
      throw new UserError(`there is no database at ${file} yet; run serve or sync first, or check database.path`);
    }
    const runtime = await openRuntime(config);
    try {
      // The same backstop as /api/status and the page: no configured secret is printed, whatever a part reported.
      const status = redactStatus(runtime.status(), configuredSecrets(config));
      io.out(values.json ? JSON.stringify(status, null, 2) : stringify(status, { lineWidth: 0 }).trimEnd());
    } finally {
      await runtime.close();
    }
    return 0;
  },
};
