/**
 * A Jest reporter for every tier (jest.config.js adds it after the default one): when tests fail, it prints a short
 * digest just above Jest's closing summary — each failing test's file and name and the first lines of its error.
 * CI shows only the head and tail of a long log, and a suite that forwards the app's console (log-capture.ts) pushes
 * Jest's own failure report into the part that is cut; the digest makes the tail name what failed. It writes to
 * stderr, as Jest does, so the two stay in order.
 */
const path = require("node:path")

const ANSI = /\u001b\[[0-9;]*m/g
const MESSAGE_LINES = 12

class FailureDigestReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir
  }

  onRunComplete(_contexts, results) {
    const lines = []
    for (const file of results.testResults) {
      const rel = path.relative(this.rootDir, file.testFilePath)
      if (file.testExecError) {
        lines.push(`✕ ${rel} (the file did not run)`, ...indent(file.testExecError.message))
      }
      for (const test of file.testResults.filter((t) => t.status === "failed")) {
        lines.push(`✕ ${rel} › ${test.fullName}`, ...indent(test.failureMessages.join("\n")))
      }
      if (!file.testExecError && file.failureMessage && !file.testResults.some((t) => t.status === "failed")) {
        lines.push(`✕ ${rel} (a hook failed)`, ...indent(file.failureMessage))
      }
    }
    if (!lines.length) return
    process.stderr.write(`\n---------- failure digest (${results.numFailedTests} failed test(s)) ----------\n${lines.join("\n")}\n`)
  }
}

function indent(message) {
  return String(message ?? "")
    .replace(ANSI, "")
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l && !l.includes("node_modules/") && !l.includes("(<anonymous>)"))
    .slice(0, MESSAGE_LINES)
    .map((l) => `    ${l}`)
}

module.exports = FailureDigestReporter
