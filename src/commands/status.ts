import { stringify } from 'yaml';
import type { Command } from './command.ts';

export const statusCommand: Command = {
  name: 'status',
  summary: 'counts, last poll, pending and failed work, last errors, from the database',
  help: 'Reads the database only (safe while `serve` runs). --json prints the same document as GET /api/status.',
  options: { json: { type: 'boolean', description: 'print JSON instead of text' } },
  async run({ values, io, openRuntime }) {
    const runtime = await openRuntime();
    try {
      const status = runtime.status();
      io.out(values.json ? JSON.stringify(status, null, 2) : stringify(status, { lineWidth: 0 }).trimEnd());
    } finally {
      await runtime.close();
    }
    return 0;
  },
};
