/**
 * Jest's order of spec files for the integration and reliability tiers: the app groups first (integration-tests/groups,
 * reliability-tests/groups: several files each, the longest runs of the tier), then the packaging spec (a build and an
 * install), then Jest's own order (the slowest of the last run first, else the largest file). Jest alone knows nothing
 * on a fresh clone and would start a group, a few lines long, last: the tier would end with one worker idle.
 */
const Sequencer = require("@jest/test-sequencer").default

const rank = (path) => (/[\\/]groups[\\/][^\\/]+\.spec\.[jt]s$/.test(path) ? 0 : /packaging\.spec\.[jt]s$/.test(path) ? 1 : 2)

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests)
    const position = new Map(ordered.map((t, i) => [t, i]))
    return [...ordered].sort((a, b) => rank(a.path) - rank(b.path) || position.get(a) - position.get(b))
  }
}

module.exports = LongestFirstSequencer
