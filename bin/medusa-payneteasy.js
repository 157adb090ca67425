#!/usr/bin/env node
/**
 * medusa-payneteasy — entry point. Runs the compiled CLI from the plugin build (`medusa plugin:build` compiles
 * src/cli/index.ts to .medusa/server/src/cli/index.js); the TypeScript source is not loaded at runtime.
 */
"use strict"
const fs = require("node:fs")
const path = require("node:path")

const built = path.join(__dirname, "..", ".medusa", "server", "src", "cli", "index.js")
if (!fs.existsSync(built)) {
  process.stderr.write(
    `medusa-payneteasy: the CLI is not built (${path.relative(process.cwd(), built) || built} is missing).\n` +
      "Run `npm run build` (medusa plugin:build) in the plugin directory first.\n"
  )
  process.exit(2)
}

const { main } = require(built)
main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    process.stderr.write(`medusa-payneteasy: ${error && error.message ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
)
