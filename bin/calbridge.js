#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx's loader, registered in this very process), so there is
// no build step to forget and SIGTERM reaches calbridge itself, not a wrapper.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
const code = await runCli(process.argv.slice(2));
// Exit now: a finished command must not linger on an idle timer or socket (stdout/stderr are synchronous here).
process.exit(code);
