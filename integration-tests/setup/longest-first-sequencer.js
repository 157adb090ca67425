/**
 * Jest's order of spec files for the integration and reliability tiers: the longest first, so that the tier does not
 * end with one worker running a long file alone while the other is idle. First the files and app groups whose length is
 * known (MEASURED below, longest first), then any other app group (integration-tests/groups: several files each), then
 * Jest's own order (the slowest of the last run first, else the largest file). Jest alone knows nothing
 * on a fresh clone, and its cache remembers a file's last run, however it was run (a fuzzing run with 200 inputs per
 * route put the real one last: 3.5 minutes of the tier on one worker, issue 38).
 */
const Sequencer = require("@jest/test-sequencer").default

// Seconds a file took in a tier run on a quiet 2-core machine (2026-11-28, `npm test`); only the order matters. The app
// groups are here too, so that `integration+reliability` pairs a group that mostly waits (step retries, the provider's
// timers) with a reliability file that keeps a core busy, rather than starting every group at once.
const MEASURED = {
  // mostly waiting (faults, held requests, the oracle's reads): 290-480 s alone, about 100-250 s of CPU (2026-12-03)
  "reliability-tests/money-model.spec.ts": 300,
  "reliability-tests/storms-and-races.spec.ts": 200,
  "integration-tests/groups/v4-app.spec.ts": 178,
  "reliability-tests/fuzzing.spec.ts": 175,
  "integration-tests/groups/shared-app-b.spec.ts": 162,
  "integration-tests/http/packaging.spec.ts": 159,
  "integration-tests/groups/shared-app-a.spec.ts": 148,
  "reliability-tests/two-instances.spec.ts": 114,
  "reliability-tests/fault-trials.spec.ts": 86,
  "integration-tests/http/saved-card-payments.spec.ts": 57,
  "integration-tests/http/payouts.spec.ts": 32,
  "reliability-tests/secret-scan.spec.ts": 24,
  "integration-tests/http/callback-processing-delay.spec.ts": 20,
}

const isGroup = (path) => /[\\/]groups[\\/][^\\/]+\.spec\.[jt]s$/.test(path)
const measured = (path) => {
  const key = Object.keys(MEASURED).find((k) => path.replace(/\\/g, "/").endsWith(k))
  return key ? MEASURED[key] : -1
}

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests)
    const position = new Map(ordered.map((t, i) => [t, i]))
    const rank = (t) => (measured(t.path) >= 0 || isGroup(t.path) ? 0 : 1)
    return [...ordered].sort(
      (a, b) => rank(a) - rank(b) || measured(b.path) - measured(a.path) || position.get(a) - position.get(b)
    )
  }
}

module.exports = LongestFirstSequencer
