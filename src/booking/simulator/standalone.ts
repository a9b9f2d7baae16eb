// The simulator on its own, for a person with curl:
//   npm run simulator -- --port 9090 --seed 40 --living
import { parseArgs } from 'node:util';
import { startSimulator } from './index.ts';
import type { NotifyShape } from './notifier.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9090' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string' },
    seed: { type: 'string', default: '40' },
    'random-seed': { type: 'string', default: '1' },
    living: { type: 'boolean', default: false },
    interval: { type: 'string', default: '5000' },
    shape: { type: 'string', default: 'seed' },
    notify: { type: 'string', default: 'envelope' },
    timezone: { type: 'string', default: 'America/Sao_Paulo' },
    'rewrite-callbacks-to': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log(`usage: npm run simulator -- [options]
  --port N                 listen port (default 9090; 0 picks one)
  --host H                 listen address (default 127.0.0.1)
  --token T                bearer token to require (default: a random one, printed)
  --seed N                 realistic appointments to start with (default 40)
  --random-seed N          makes the data repeat (default 1)
  --living                 keep booking, confirming, rescheduling and cancelling
  --interval MS            living-mode step interval (default 5000)
  --shape seed|practice    record shape of the API's answers
  --notify envelope|bare|upper   notification body shape
  --timezone Z             the service's zone (default America/Sao_Paulo)
  --rewrite-callbacks-to URL     deliver notifications to this origin instead of the registered https one`);
  process.exit(0);
}

const shape = values.shape === 'practice' ? 'practice' : 'seed';
const rewrite = values['rewrite-callbacks-to'];
const sim = await startSimulator({
  port: Number(values.port),
  host: values.host,
  token: values.token,
  timezone: values.timezone,
  recordShape: shape,
  seed: { count: Number(values.seed), random: Number(values['random-seed']) },
  notify: {
    shape: values.notify as NotifyShape,
    ...(rewrite ? { rewriteCallback: (url: string) => new URL(new URL(url).pathname + new URL(url).search, rewrite).href } : {}),
  },
});
console.log(`booking simulator listening on ${sim.url}`);
console.log(`token: ${sim.token}`);
console.log(`try:   curl -H "Authorization: Bearer ${sim.token}" ${sim.url}/api/v3/appointments/`);
if (values.living) {
  sim.startLiving({ intervalMs: Number(values.interval), onStep: (what) => console.log(`${new Date().toISOString()} ${what}`) });
  // startLiving's timer does not hold the process; the server does.
}
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
