// `feeds`: each feed's subscription URLs. The one place a feed token is printed, on purpose.
import type { Command } from './command.ts';
import { feedUrls } from '../feeds/feed-urls.ts';

export const feedsCommand: Command = {
  name: 'feeds',
  showsFeedTokens: true,
  summary: "each feed's https:// and webcal:// URL",
  help:
    'Prints every configured feed with the URLs to subscribe to (they contain the feed token: share them\n' +
    'only with the people meant to see the feed). See docs/subscribing.md for phones and calendar apps.',
  async run({ io, loadConfig }) {
    const config = loadConfig();
    if (config.feeds.length === 0) {
      io.out('No feeds are configured (add a `feeds:` section to the config).');
      return 0;
    }
    feedUrls(config).forEach((u, i) => {
      if (i > 0) io.out('');
      io.out(u.name);
      io.out(`  ${u.https}`);
      io.out(`  ${u.webcal}`);
    });
    if (!config.server.public_url.startsWith('https://')) {
      io.err('Note: server.public_url is not https://; Google Calendar and most phones need a public HTTPS address.');
    }
    return 0;
  },
};
