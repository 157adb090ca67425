/**
 * Jest's order of spec files for the integration and reliability tiers: the longest first, so that the tier does not
 * end with one worker running a long file alone while the other is idle. First the files and app groups whose length is
 * known (MEASURED below, longest first), then any other app group (integration-tests/groups: several files each), then
 * Jest's own order (the slowest of the last run first, else the largest file). Jest alone knows nothing
 * on a fresh clone, and its cache remembers a file's last run, however it was run (a fuzzing run with 200 inputs per
 * route put the real one last: 3.5 minutes of the tier on one worker, issue 38).
 */
const Sequencer = require("@jest/test-sequencer").default

// Seconds a file took in a tier run (`npm run test:integration+reliability`, 2026-12-03, on a 2-core machine shared with
// other test runs, load average 4-7; wall and, in the comment, the Jest worker's own CPU); only the order matters. The
// app groups are here too, so that `integration+reliability` pairs a group that mostly waits (step retries, the
// provider's timers) with a reliability file that keeps a core busy, rather than starting every group at once.
const MEASURED = {
  // mostly waiting (faults, held requests, the oracle's reads): 300-590 s, about 170 s of CPU
  "reliability-tests/money-model.spec.ts": 590,
  "integration-tests/groups/v4-app.spec.ts": 420, // 115 s CPU: step retries and the provider's timers
  "integration-tests/groups/shared-app-b.spec.ts": 400, // with payment-links (96 s alone): 310 + 60
  "integration-tests/groups/shared-app-a.spec.ts": 250, // with money-attacks (69 s alone): 190 + 45
  "integration-tests/http/packaging.spec.ts": 260, // child processes: npm pack + build, install, two boots
  "reliability-tests/two-instances.spec.ts": 156, // child processes: a server and a worker
  "reliability-tests/fault-trials.spec.ts": 130, // 35 s CPU
  "reliability-tests/fuzzing.spec.ts": 110, // 200 inputs per route (1,000: 445 s, 174 s CPU)
  "reliability-tests/storms-and-races.spec.ts": 75, // 10 sessions, 10 races (20 and 20: 136 s, 59 s CPU)
  "integration-tests/http/slow-gateway.spec.ts": 98,
  "integration-tests/http/saved-card-payments.spec.ts": 74,
  "integration-tests/http/payouts.spec.ts": 51,
  "reliability-tests/secret-scan.spec.ts": 44,
  "integration-tests/http/payout-eligibility.spec.ts": 36,
  "integration-tests/http/callback-processing-delay.spec.ts": 31,
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
