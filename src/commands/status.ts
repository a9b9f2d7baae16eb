import { existsSync } from 'node:fs';
import { UserError } from '../core/errors.ts';
import type { Command } from './command.ts';

export const statusCommand: Command = {
  name: 'status',
  summary: 'whether all is well: each problem with its fix, the counts and the latest activity, from the database',
  help: 'Reads the database that serve and sync write (safe while `serve` runs). Prints a verdict ("all is well" or how many problems), each problem in a sentence with what to do, the counts and the latest activity, in server.locale and the booking time zone, as the status page does. --json prints the whole document GET /api/status serves, for scripts.',
  options: { json: { type: 'boolean', description: 'print the whole status document as JSON (as GET /api/status)' } },
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
      if (values.json) {
        io.out(JSON.stringify(status, null, 2));
        return 0;
      }
      const { statusText } = await import('./status-text.ts');
      const { pageProblems } = await import('../http/status-page/problems.ts');
      const { facts } = await import('../http/status-page/page.ts');
      const { voiceOf } = await import('../config/voice.ts');
      const voice = voiceOf(config);
      const zone = config.booking.timezone;
      const now = Date.now();
      const codeOf = (key: string) => runtime.services.appointments.get(key)?.appointment.searchCode;
      // This process serves nothing: its own lifecycle ("starting") says nothing about the bridge.
      runtime.lifecycle.set('serving');
      const problems = pageProblems(runtime.readiness(), status, { m: voice.m, zone, codeOf });
      const feeds = config.feeds.length;
      for (const line of statusText({ problems, facts: facts(status, feeds, now, voice.m), activity: status.activity, voice, zone, now }))
        io.out(line);
    } finally {
      await runtime.close();
    }
    return 0;
  },
};
