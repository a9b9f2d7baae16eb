// The arrows of calbridge (ARCHITECTURE.md, "Where each rule lives"): which folder may import which. `npm run
// lint:deps` checks them; a broken rule names itself and the import that broke it.
// Tests beside their code (`*.test.ts`) are not runtime and are not cruised.

const ADAPTERS = '(booking|google|caldav|microsoft|alerts)';
// The use cases: the booking service's changes to stored state and calendar targets (sync), and the feeds.
const USE_CASES = '(sync|feeds)';
const GOOGLE_LIBRARIES = '(^|/)node_modules/(@types/)?(googleapis|googleapis-common|google-auth-library|gaxios|gtoken|@googleapis/[^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle means two modules cannot be understood (or tested) one without the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'core/ is the pure model and decisions: it imports nothing of ours but core/.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'use-cases-stay-inside',
      severity: 'error',
      comment: 'sync/ and feeds/ hold the use cases: the HTTP layer, the commands and the wiring call them, never the other way.',
      from: { path: `^src/${USE_CASES}/` },
      to: { path: '^src/(http/|commands/|wiring/|main\\.ts$|cli\\.ts$)' },
    },
    {
      name: 'feeds-need-no-calendar-adapter',
      severity: 'error',
      comment: 'A feed is rendered from stored state: feeds/ never talks to the booking service, Google or a CalDAV server.',
      from: { path: '^src/feeds/' },
      to: { path: `^src/${ADAPTERS}/` },
    },
    {
      name: 'status-document-stands-alone',
      severity: 'error',
      comment: 'status/ is the status document, a contract its producers and readers share: it imports nothing of ours.',
      from: { path: '^src/status/' },
      to: { path: '^src/', pathNot: '^src/status/' },
    },
    {
      name: 'adapters-stand-alone',
      severity: 'error',
      comment: 'An adapter (booking, google, caldav, microsoft, alerts) never imports another adapter; the wiring joins them.',
      from: { path: `^src/${ADAPTERS}/` },
      to: { path: `^src/${ADAPTERS}/`, pathNot: '^src/$1/' },
    },
    {
      name: 'adapters-stay-inside',
      severity: 'error',
      comment: 'Adapters know neither routes, the wiring, the commands nor the use cases that call them.',
      from: { path: `^src/${ADAPTERS}/` },
      to: { path: '^src/(http/|wiring/|commands/|sync/|main\\.ts$|cli\\.ts$)' },
    },
    {
      name: 'shared-helpers-stand-alone',
      severity: 'error',
      comment:
        'net/ (pacing, retry policy, rate-limit headers) and ical/ (the VEVENT rendering) serve several adapters: they import only core/.',
      from: { path: '^src/(net|ical)/' },
      to: { path: '^src/', pathNot: ['^src/core/', '^src/$1/'] },
    },
    {
      name: 'simulators-stand-alone',
      severity: 'error',
      comment: "A simulator is another party's service: it imports nothing of calbridge's runtime but the core model.",
      from: { path: '^src/(booking|google|caldav|microsoft)/simulator/' },
      to: { path: '^src/', pathNot: ['^src/core/', '^src/$1/simulator/'] },
    },
    {
      name: 'store-stays-inside',
      severity: 'error',
      comment: 'store/ owns the SQL; it knows the core model, never a use case, an adapter or a route.',
      from: { path: '^src/store/' },
      to: { path: `^src/(sync/|feeds/|status/|http/|jobs/|wiring/|commands/|${ADAPTERS}/|main\\.ts$|cli\\.ts$)` },
    },
    {
      name: 'database-handle-stays-in-store',
      severity: 'error',
      comment: 'The raw database handle reaches store/ and the wiring only; everyone else goes through store methods.',
      from: { path: '^src/', pathNot: '^src/(store|wiring)/' },
      to: { path: '^src/store/db\\.ts$' },
    },
    {
      name: 'only-store-opens-sqlite',
      severity: 'error',
      comment: 'better-sqlite3 is a detail of store/.',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '(^|/)node_modules/(@types/)?better-sqlite3/' },
    },
    {
      name: 'only-google-talks-to-google',
      severity: 'error',
      comment: "Google's client libraries are a detail of google/ (and loaded only when Google is called).",
      from: { path: '^src/', pathNot: '^src/google/' },
      to: { path: GOOGLE_LIBRARIES },
    },
    {
      name: 'wiring-is-the-root',
      severity: 'error',
      comment: 'Only main.ts, the CLI and its commands start the runtime that wiring/ builds.',
      from: { path: '^src/', pathNot: '^src/(wiring/|commands/|main\\.ts$|cli\\.ts$)' },
      to: { path: '^src/wiring/' },
    },
  ],
  options: {
    includeOnly: { path: '^src/|node_modules/' },
    exclude: { path: '\\.test\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are arrows too: a type from http/ in sync/ still ties sync/ to http/.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
