// Every command of docs/reference/commands.md. cli.ts finds them here by name.
import type { Command } from './command.ts';
import { serveCommand } from './serve.ts';
import { demoCommand } from './demo.ts';
import { checkConfigCommand } from './check-config.ts';
import { syncCommand } from './sync.ts';
import { statusCommand } from './status.ts';
import { feedsCommand } from './feeds.ts';
import { googleAuthCommand } from './google-auth.ts';
import { microsoftAuthCommand } from './microsoft-auth.ts';
import { backupCommand } from './backup.ts';
import { connectInviteCommand, connectionsListCommand, connectionsRemoveCommand } from './connect.ts';
import { webhooksEnsureCommand, webhooksListCommand, webhooksRemoveCommand } from './webhooks.ts';

export const commands: Command[] = [
  serveCommand,
  demoCommand,
  checkConfigCommand,
  syncCommand,
  statusCommand,
  feedsCommand,
  webhooksListCommand,
  webhooksEnsureCommand,
  webhooksRemoveCommand,
  googleAuthCommand,
  microsoftAuthCommand,
  connectInviteCommand,
  connectionsListCommand,
  connectionsRemoveCommand,
  backupCommand,
];
