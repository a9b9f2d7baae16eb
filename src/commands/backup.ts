// `backup <file>`: a consistent copy of the database, safe while `serve` runs (store/backup.ts).
import { resolve } from 'node:path';
import type { Command } from './command.ts';
import { UserError } from '../core/errors.ts';

export const backupCommand: Command = {
  name: 'backup',
  summary: 'a consistent copy of the database, taken while serve runs',
  args: ['<file>'],
  help:
    "Copies the database with SQLite's online backup API: serve keeps running and answering webhooks.\n" +
    'The copy is checked, readable by its owner only (mode 0600), and written under a temporary name\n' +
    'first, so <file> is never half a backup. An existing <file> is kept unless --force is given.\n' +
    'To restore, see "Backup and restore" in the README. Exit status 0 when written, 1 otherwise.',
  options: { force: { type: 'boolean', description: 'replace <file> if it exists' } },
  async run({ values, positionals, io, loadConfig }) {
    const { BackupError, backupDatabase } = await import('../store/backup.ts');
    const given = positionals[0];
    if (!given) throw new UserError('give the file to write the backup to, e.g. calbridge backup /data/backups/calbridge.db', 2);
    const config = loadConfig();
    const source = config.database.path;
    if (source === ':memory:') throw new UserError('database.path is :memory:; there is nothing on disk to back up');
    const target = resolve(given);
    const started = Date.now();
    try {
      const { bytes } = await backupDatabase(source, target, { force: Boolean(values.force) });
      const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`;
      io.out(`Backed up ${source} to ${target} (${size}, checked) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      return 0;
    } catch (e) {
      if (e instanceof BackupError) throw new UserError(e.message);
      throw e;
    }
  },
};
