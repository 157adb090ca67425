#!/usr/bin/env node
/**
 * Runs integration spec files on the app a test session already booted (scripts/test-session.js), without booting one:
 *   npm run test:attach -- integration-tests/http/callback.spec.ts [-t "duplicate"] [--verbose]
 *   npm run test:attach -- --status        the session's boots and runs so far (JSON)
 *   npm run test:attach -- --stop          shuts the session down
 * Prints the run's Jest output; exits 0 when every test passed, 1 when one failed (or none ran), 2 without a session.
 */
const net = require("node:net")
const { socketPath } = require("./test-session")

const args = process.argv.slice(2)
const cmd = args[0] === "--status" ? "status" : args[0] === "--stop" ? "stop" : "run"
const sock = socketPath()

const socket = net.connect(sock)
socket.setEncoding("utf8")
socket.once("error", (error) => {
  console.error(`[attach] no test session for this checkout (${sock}: ${error.code}): start one with \`npm run test:session\` (in another terminal)`)
  process.exit(2)
})
socket.once("connect", () => socket.write(`${JSON.stringify({ cmd, args, cwd: process.cwd() })}\n`))

let buffer = ""
let done
socket.on("data", (chunk) => {
  buffer += chunk
  let nl
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const message = JSON.parse(buffer.slice(0, nl))
    buffer = buffer.slice(nl + 1)
    if (message.out !== undefined) process.stderr.write(message.out)
    if (message.done) done = message
  }
})
socket.on("close", () => {
  if (!done) {
    console.error("[attach] the session closed the connection before the run ended")
    process.exit(1)
  }
  if (cmd === "status") console.log(JSON.stringify(done))
  process.exit(done.success ? 0 : 1)
})
