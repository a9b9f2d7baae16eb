// A job: named, scheduled, never overlapping itself (in this process or, through a lease, any other).

/**
 * Every job calbridge runs: its own, and each calendar target account's (`google-writer`,
 * `caldav-reverse-sync`, `google.ana-reschedules`, `google.ana-channels`; sync/target/adapter.ts
 * targetJobs). `accounts` reads the accounts connected on the web again. Waking or running a name of
 * neither form does not compile.
 */
export type JobName =
  | 'poll'
  | 'deliveries'
  | 'retention'
  | 'alerts'
  /** Re-reads the accounts (the config's and those connected on the web, sync/target/connected-account.ts). */
  | 'accounts'
  | `${string}-${'writer' | 'reverse-sync' | 'reschedules' | 'channels' | 'subscriptions'}`;

/** Runs a job now, or right after its current run: a new delivery, a push notification, a change to write. */
export type Wake = (job: JobName) => void;

export type JobStatus = 'success' | 'skipped' | 'failed';

export interface JobResult {
  status: JobStatus;
  /** One line for people: what the run did. */
  summary?: string;
  /** Items that failed inside an otherwise finished run. */
  failed?: number;
  /** The run stopped at its time budget with work left: `sync` runs it again. */
  more?: boolean;
  /** It found nothing to do: its log line is at debug, so frequent idle runs do not drown the log. */
  idle?: boolean;
}

/** Reports progress of a long run (the `sync` command draws a bar from it on a TTY). */
export type Progress = (done: number, total: number) => void;

export interface Job {
  name: JobName;
  /** node-cron expression, or a fixed interval in ms. */
  schedule: string | { everyMs: number };
  run(progress?: Progress): Promise<JobResult>;
  /** Part of the one-shot `sync` pass, in the order parts and jobs are listed. Default true. */
  inSync?: boolean;
  /** Lease time-to-live: longer than any run can take. Default 10 minutes. */
  leaseMs?: number;
}
