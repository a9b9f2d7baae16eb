// `webhooks list | ensure | remove <webhook_key>` (docs/reference/commands.md): the registration at the booking service.
import { UserError } from '../core/errors.ts';
import type { Command, CommandArgs } from './command.ts';

/** The booking client and the helpers these commands use, loaded when one of them runs (not by --help). */
async function client(args: CommandArgs) {
  const [{ bookingClientFromConfig }, { callbackUrl, ensureWebhook }, { commandLogger, maskUrlSecret }] = await Promise.all([
    import('../booking/client.ts'),
    import('../booking/webhook-registration.ts'),
    import('../log.ts'),
  ]);
  const config = args.loadConfig();
  const log = commandLogger(args.verbose);
  return { config, api: bookingClientFromConfig(config.booking, log), callbackUrl, ensureWebhook, maskUrlSecret };
}

export const webhooksListCommand: Command = {
  name: 'webhooks list',
  summary: 'the webhooks registered at the booking service (our secret masked)',
  help: 'Lists every webhook at the booking service; ours is marked. Exit 0 ok, 1 failed.',
  async run(args) {
    const { config, api, callbackUrl, maskUrlSecret } = await client(args);
    const secret = config.webhook.secret;
    const ours = callbackUrl(config.server.public_url, secret);
    const hooks = await api.listWebhooks();
    if (hooks.length === 0) args.io.out('no webhooks registered at the booking service');
    for (const w of hooks) {
      const mark = w.url === ours ? '  (ours)' : '';
      const masked = maskUrlSecret(maskUrlSecret(w.url, secret), config.webhook.previous_secret ?? '');
      args.io.out(`${w.webhook_key}  ${masked}  [${w.events.join(', ')}]${mark}`);
    }
    return 0;
  },
};

export const webhooksEnsureCommand: Command = {
  name: 'webhooks ensure',
  summary: 'make sure exactly one webhook points at {public_url}/webhooks/{secret}/ with the configured events',
  help: 'Creates it, or updates the first one in place, and deletes extra ones with the same URL; other webhooks are left alone. Needs an https:// server.public_url. Exit 0 ok, 1 failed.',
  async run(args) {
    const { config, api, ensureWebhook, maskUrlSecret } = await client(args);
    const secret = config.webhook.secret;
    const r = await ensureWebhook(api, {
      publicUrl: config.server.public_url,
      secret,
      events: config.webhook.events,
      previousSecret: config.webhook.previous_secret,
    });
    const url = maskUrlSecret(r.callbackUrl, secret);
    const what = { created: 'created', updated: 'updated', unchanged: 'already in place' }[r.action];
    args.io.out(`webhook ${r.webhook.webhook_key} ${what}: ${url} [${r.webhook.events.join(', ')}]`);
    if (r.removed > 0) args.io.out(`removed ${r.removed} duplicate webhook${r.removed === 1 ? '' : 's'} with the same URL`);
    return 0;
  },
};

export const webhooksRemoveCommand: Command = {
  name: 'webhooks remove',
  summary: 'delete one webhook at the booking service by its key',
  args: ['<webhook_key>'],
  help: 'Deletes the webhook with that key (see `webhooks list`). Exit 0 ok, 1 failed.',
  async run(args) {
    const key = args.positionals[0];
    if (!key || args.positionals.length > 1)
      throw new UserError('give exactly one webhook key, e.g. `calbridge webhooks remove <webhook_key>` (see `webhooks list`)', 2);
    const { api } = await client(args);
    await api.deleteWebhook(key);
    args.io.out(`webhook ${key} removed`);
    return 0;
  },
};
