/**
 * `medusa-payneteasy` — command-line tools for the PaynetEasy plugin: send one gateway operation, verify a
 * callback's checksum, generate an RSA key pair, run the local gateway sandbox.
 *
 * `main(argv, io)` is the whole program and returns the exit code, so tests call it in-process; bin/medusa-payneteasy.js
 * calls it with the real process streams. Output is scrubbed by each command (no control key, private key, PAN, CVV).
 */
import { scrub } from "../gateway"
import { callbackCommand } from "./commands/callback"
import { doctorCommand } from "./commands/doctor"
import { keysCommand } from "./commands/keys"
import { requestCommand } from "./commands/request"
import { sandboxCommand } from "./commands/sandbox"
import { CliUsageError, EXIT, println, type CliIO } from "./io"

export type { CliIO } from "./io"
export { EXIT } from "./io"

export const MAIN_HELP = `Usage: medusa-payneteasy <command> [options]

Tools for the PaynetEasy payment plugin for Medusa v2.

Commands:
  request <OPERATION> [field=value ...]   send one gateway operation, print the reply as JSON
  callback verify '<query string>'        check the control checksum of a gateway callback
  keys generate --out <dir>               create an RSA key pair for RSA-SHA256 signed operations
  sandbox                                 run the local gateway simulator (default http://127.0.0.1:4010)
  doctor                                  check that gateway credentials work (says why not, in words)

Run "medusa-payneteasy <command> --help" for the options of a command.

Examples:
  medusa-payneteasy sandbox
  medusa-payneteasy request status --base-url http://127.0.0.1:4010/paynet --endpoint-id 1111 \\
    --login sandbox-merchant --control-key "$PAYNETEASY_CONTROL_KEY" client_orderid=order-1 orderid=1000001
`

const COMMANDS: Record<string, (argv: string[], io: CliIO) => Promise<number>> = {
  request: requestCommand,
  callback: callbackCommand,
  keys: keysCommand,
  sandbox: sandboxCommand,
  doctor: doctorCommand,
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    ;(command === undefined ? io.stderr : io.stdout).write(MAIN_HELP)
    return command === undefined ? EXIT.USAGE : EXIT.OK
  }
  const run = COMMANDS[command]
  if (!run) {
    println(io.stderr, `error: unknown command "${scrub(command).slice(0, 40)}"`)
    io.stderr.write(MAIN_HELP)
    return EXIT.USAGE
  }
  try {
    return await run(rest, io)
  } catch (e) {
    if (e instanceof CliUsageError) {
      println(io.stderr, `error: ${scrub(e.message)}`)
      println(io.stderr, `(see: medusa-payneteasy ${command} --help)`)
      return EXIT.USAGE
    }
    println(io.stderr, `error: ${scrub((e as Error)?.message ?? String(e))}`)
    return EXIT.FAILURE
  }
}
