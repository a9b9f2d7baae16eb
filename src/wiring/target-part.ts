// A calendar target as a part of the daemon: the one builder (sync/target/build-target.ts) over an
// adapter and its account, with the account's own links and actions, and in a dry run its writes
// held back (sync/dry-run/capture-target.ts). Every target goes through here.
import type { ApplyDeps } from '../sync/apply-record.ts';
import { captureTarget } from '../sync/dry-run/capture-target.ts';
import { accountId, type TargetAccount, type TargetAdapter } from '../sync/target/adapter.ts';
import { buildTarget } from '../sync/target/build-target.ts';
import type { CalendarTarget } from '../core/mirror/target.ts';
import { withLabels } from '../metrics.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

export interface TargetPartOptions {
  /** Backoff of an appointment whose write failed (tests: none). */
  itemBackoff?: { baseMs: number; maxMs: number };
}

export function targetPart<B>(
  s: Services,
  adapter: TargetAdapter<B>,
  account: TargetAccount,
  apply: ApplyDeps,
  options: TargetPartOptions = {},
): Part {
  const { links, actions } = s.targetStores(accountId(account));
  const held = s.held;
  let captured: CalendarTarget<B> | undefined;
  const run: TargetAdapter<B> = held
    ? {
        ...adapter,
        target: () =>
          (captured ??= captureTarget(
            // The single form's writes are told as the kind's ("google"); another account's by its name.
            account.name === 'default' ? adapter.kind : accountId(account),
            adapter.target(),
            { body: (b) => adapter.bodyFacts(b), keyOf: (c, e) => links.byEvent(c, e)?.appointmentKey ?? null },
            held,
          )),
      }
    : adapter;
  return buildTarget(run, account, {
    clock: s.clock,
    log: s.log,
    // Each account's series carry its name: calbridge_google_writes_total{account="google.ana"}.
    metrics: withLabels(s.metrics, { account: accountId(account) }),
    booking: s.booking,
    appointments: s.appointments,
    cursors: s.cursors,
    atomic: s.atomic,
    activity: s.activity,
    apply,
    links,
    actions,
    wake: s.wake,
    pollSchedule: s.config.poll.schedule,
    slotLock: s.slotLock,
    ...(options.itemBackoff ? { itemBackoff: options.itemBackoff } : {}),
  });
}
