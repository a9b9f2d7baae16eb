// `demo`: the whole bridge with no credentials: the built-in booking simulator → calbridge → the
// Google Calendar and Graph (Outlook) simulators and the feed, on a throw-away database
// (demo-session.ts runs it).
import type { Command } from './command.ts';

export const demoCommand: Command = {
  name: 'demo',
  showsFeedTokens: true,
  summary: 'the whole bridge against built-in simulators of the booking service, Google and Outlook: throw-away database, no credentials',
  help: [
    'Starts a simulated booking service seeded with realistic appointments that keep changing, a simulated',
    'Google Calendar and a simulated Outlook (Microsoft 365), and the daemon between them, with a temporary',
    'database removed at exit. Nothing is needed: no config, no tokens. Simulated people now and then drag',
    'an event in the simulated Google calendar or Outlook to a free slot or onto a taken one, or delete it:',
    'the terminal and the status page say what calbridge did about it (a reschedule at the booking service,',
    'a move back, a recreated event). The status page links to /demo/google and /demo/outlook, the',
    "simulated calendars, to see each mirror beside the feed: the clinic's accounts, and Ana's (Google) and",
    'Carla\'s (Outlook) own, each with her booking calendar only. A "connect your calendar" link for Lúcia is',
    'printed and shown on the status page: click through the simulated Google and her calendar is mirrored too.',
    'With --config, the Google section of that file is used instead: real Google calendars are mirrored',
    '(and simulated people stay out of them); the simulated Outlook is then left out.',
    'Stops on SIGTERM or SIGINT (Ctrl-C), exit 0.',
  ].join('\n'),
  options: {
    port: { type: 'string', description: 'listen on this port (default 8080; 0 picks a free one)' },
    locale: {
      type: 'string',
      description: 'the language of the pages and the terminal: en or pt-BR (default: server.locale of --config, else en)',
    },
    appointments: { type: 'string', description: 'appointments to start with (default 40)' },
    interval: { type: 'string', description: 'milliseconds between changes at the simulated booking service (default 4000)' },
    'people-interval': {
      type: 'string',
      description: 'milliseconds between edits of simulated people in each simulated calendar, Google and Outlook (default 15000; 0: none)',
    },
  },
  async run(args) {
    // Loaded here, not at the top: `calbridge --help` describes every command without loading the daemon.
    const { runDemo } = await import('./demo-session.ts');
    return runDemo(args);
  },
};
