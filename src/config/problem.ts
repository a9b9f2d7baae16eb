// One problem found in a config: where (its YAML path and line) and what, as check-config prints it.

export interface ConfigProblem {
  /** YAML path like `booking.base_url` or `feeds[0].token`; empty for the whole file. */
  path: string;
  line?: number;
  message: string;
}
